/**
 * The one set-up pipeline every integration calls: collected methods, injection points and configuration in;
 * plans, named locks and one problem report out.
 *
 * <p>Internal: public only so that Padlock's CDI and Quarkus integrations can use it; no compatibility promise.
 */
package dev.padlock.core.setup;
