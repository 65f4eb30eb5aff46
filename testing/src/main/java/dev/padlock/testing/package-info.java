/**
 * JUnit 5 support that gives a test a real Redis and control over it. {@link dev.padlock.testing.RedisExtension}
 * injects a {@link dev.padlock.testing.RedisServer}, {@link dev.padlock.testing.RedisCluster} or
 * {@link dev.padlock.testing.RedisSentinel} into a test and closes it after the class; {@link dev.padlock.testing.Redis}
 * starts one by hand. A server the harness started can be stopped, killed and restarted on the same port, cut off
 * through a {@link dev.padlock.testing.RedisProxy}, or kept from its replicas with a
 * {@link dev.padlock.testing.ReplicationCut}; {@link dev.padlock.testing.RedisMonitor} and
 * {@link dev.padlock.testing.CommandStats} show what a client sent.
 *
 * <p>Where the Redis comes from: {@code -Dpadlock.test.redis=redis://host:port}, else a {@code redis-server} binary
 * ({@code -Dpadlock.test.redis-server} or the {@code PATH}), started through {@code padlock-redis-server}, else a
 * Testcontainers container. A test that finds none fails, with a message saying how to get one; it is never skipped.
 */
package dev.padlock.testing;
