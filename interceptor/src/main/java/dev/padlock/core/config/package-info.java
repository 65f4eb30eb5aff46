/**
 * Reading and checking Padlock's configuration (`padlock.*`): the keys, global defaults, durations and leases.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.config;
