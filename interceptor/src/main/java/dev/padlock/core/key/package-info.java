/**
 * Turning key templates such as `{order.id}` into Redis keys: parsing, binding to parameters, rendering per call.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.key;
