/**
 * Everything tied to Redisson's API and to the data it writes to Redis for a lock: a Redisson upgrade should touch only this package.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.redis;
