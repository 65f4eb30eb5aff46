/**
 * Getting a `RedissonClient`: connection settings, Padlock's own client, and an application's.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.client;
