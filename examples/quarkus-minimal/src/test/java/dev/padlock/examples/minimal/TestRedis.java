package dev.padlock.examples.minimal;

import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A Redis of the test's own from padlock-testing (a {@code redis-server} on a free port, else a container, else
 * {@code -Dpadlock.test.redis=}; without any the test fails and says how to get one). The application, in a JVM or
 * native, gets its address as {@code padlock.redis.address}; the test gets the server in its {@link RedisServer}
 * field to look at the keys.
 */
public class TestRedis implements QuarkusTestResourceLifecycleManager {

    private RedisServer server;

    @Override
    public Map<String, String> start() {
        server = Redis.startServer();
        return Map.of("padlock.redis.address", server.uri());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(server, new TestInjector.MatchesType(RedisServer.class));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }
}
