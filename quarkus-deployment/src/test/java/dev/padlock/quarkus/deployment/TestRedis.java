package dev.padlock.quarkus.deployment;

import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;

/**
 * One harness Redis for this module's tests. {@code QuarkusExtensionTest} loads a test class twice (JUnit's
 * loader and Quarkus's), so the address is shared through a system property, which both loaders see; the
 * server itself is stopped by the harness at JVM exit.
 */
final class TestRedis {

    private static final String PROPERTY = "padlock.quarkus-tests.redis";
    private static RedisServer server;

    private TestRedis() {}

    static synchronized String uri() {
        String uri = System.getProperty(PROPERTY);
        if (uri == null) {
            server = Redis.startServer();
            uri = server.uri();
            System.setProperty(PROPERTY, uri);
        }
        return uri;
    }
}
