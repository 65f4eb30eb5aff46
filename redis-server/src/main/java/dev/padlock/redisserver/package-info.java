/**
 * Throw-away {@code redis-server} processes: found on the {@code PATH} or at a configured path, started on a free
 * loopback port with no persistence and a temporary directory of their own, driven over a minimal RESP2 connection
 * (PING, INFO, SHUTDOWN), and ended with the JVM that started them, even when that JVM is killed outright.
 *
 * <p>Padlock's Quarkus Dev Services start one with {@link dev.padlock.redisserver.ServerProcess#startStandalone}
 * when no container runtime answers. {@code padlock-testing} builds its JUnit harness (servers it can stop, kill and
 * restart, clusters, sentinels, proxies) on the same classes. Nothing here needs more than the JDK and a
 * {@code redis-server} binary.
 */
package dev.padlock.redisserver;
