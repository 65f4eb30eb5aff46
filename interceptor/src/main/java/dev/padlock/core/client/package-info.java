/**
 * Getting a `RedissonClient`: connection settings, Padlock's own client, and an application's.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations and its
 * test kit ({@link dev.padlock.core.client.Secrets}) can use it; no compatibility promise.
 */
package dev.padlock.core.client;
