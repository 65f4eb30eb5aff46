package dev.padlock.redisserver;

import java.nio.file.Path;

/**
 * The redis-server these tests run, found as padlock-testing finds one: {@code -Dpadlock.test.redis-server} or
 * {@code PADLOCK_TEST_REDIS_SERVER}, else the {@code PATH}. A machine without one fails the tests, never skips them.
 */
final class TestBinary {
    static final String PROPERTY = "padlock.test.redis-server";
    static final String ENV = "PADLOCK_TEST_REDIS_SERVER";

    private TestBinary() {}

    static RedisBinary find() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return RedisBinary.of(Path.of(configured.trim()), "-D" + PROPERTY);
        }
        configured = System.getenv(ENV);
        if (configured != null && !configured.isBlank()) {
            return RedisBinary.of(Path.of(configured.trim()), "environment variable " + ENV);
        }
        return RedisBinary.of(
                RedisBinary.findOnPath()
                        .orElseThrow(() -> new IllegalStateException("These tests start redis-server, and there is"
                                + " none on the PATH: install it (apt install redis-server / brew install redis)"
                                + " or point -D" + PROPERTY + "=/path/to/redis-server at one")),
                "PATH");
    }
}
