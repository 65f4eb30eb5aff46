/**
 * A neutral view of methods and types, so that one set of deployment rules runs on reflection (here) and on Jandex (the Quarkus build).
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.shape;
