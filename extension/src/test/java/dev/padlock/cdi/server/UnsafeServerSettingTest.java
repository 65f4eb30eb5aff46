package dev.padlock.cdi.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.contract.Refusal;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * What each value of {@code padlock.redis.unsafe-server} does with an evicting server, beside what
 * {@link EvictingServerTest} shows for {@code not-ready}: {@code warn} (the default) says it and stays ready;
 * {@code fail} stops the start-up, with Padlock's client and with the application's, and starts on a safe server (the
 * control) and on one it cannot reach yet, which then keeps readiness down.
 */
class UnsafeServerSettingTest {

    static final String APPLICATION_CLIENT_ADDRESS = "test.application-client.address";

    @ApplicationScoped
    public static class Job {
        @Locked("setting-job")
        public String run() {
            return "ran";
        }
    }

    @ApplicationScoped
    public static class ClientProducer {
        static final List<RedissonClient> CREATED = new CopyOnWriteArrayList<>();

        @Produces
        @ApplicationScoped
        RedissonClient client() {
            Config config = new Config();
            config.useSingleServer()
                    .setAddress(ConfigProvider.getConfig().getValue(APPLICATION_CLIENT_ADDRESS, String.class));
            RedissonClient client = Redisson.create(config);
            CREATED.add(client);
            return client;
        }

        void close(@Disposes RedissonClient client) {
            client.shutdown();
        }
    }

    @Test
    void warnTheDefaultSaysItAndStaysReadyShowingTheFinding() {
        try (RedisServer redis = evicting();
                PadlockLog log = new PadlockLog()) {
            try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Job.class)) {
                HealthCheckResponse ready = ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app),
                        r -> r.getData().orElseThrow().containsKey("findings"));

                assertThat(ready.getStatus()).isEqualTo(Status.UP);
                assertThat(String.valueOf(ready.getData().orElseThrow().get("findings")))
                        .contains("UNSAFE: Redis at " + redis.host() + ":" + redis.port(), "volatile-lru");
                assertThat(log.serverCheck(Level.WARNING))
                        .singleElement()
                        .asString()
                        .contains("maxmemory-policy is volatile-lru")
                        .endsWith("Padlock goes on (padlock.redis.unsafe-server=warn; not-ready would keep readiness"
                                + " down, fail would stop the start-up).");
                assertThat(app.bean(Job.class).run()).isEqualTo("ran");
            }
        }
    }

    @Test
    void failStopsTheStartUpNamingWhatIsUnsafeAndTheSetting() {
        try (RedisServer redis = evicting()) {
            long clientThreads = redissonThreads();
            RuntimeException failure = Deployment.failing(
                    Map.of("padlock.redis.address", redis.uri(), "padlock.redis.unsafe-server", "fail"), Job.class);

            assertThat(Refusal.text(failure))
                    .contains("Padlock found a Redis server that can void locks, and padlock.redis.unsafe-server=fail"
                            + " stops the start-up:\n - Redis at " + redis.host() + ":" + redis.port()
                            + " can evict lock keys: maxmemory-policy is volatile-lru")
                    .contains(
                            "Fix the server, or set padlock.redis.unsafe-server to not-ready or warn to start anyway.");
            // Padlock shut its own client down: a container that failed to deploy may never say it stops.
            Waits.until(() -> redissonThreads() <= clientThreads, "Padlock's client shut down");
        }
    }

    private static long redissonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("redisson-"))
                .count();
    }

    /** The control of the one above: the same setting on a server that does not evict starts. */
    @Test
    void failStartsOnAServerThatDoesNotEvict() {
        try (RedisServer redis = evicting()) {
            redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            try (Deployment app = Deployment.start(
                    Map.of("padlock.redis.address", redis.uri(), "padlock.redis.unsafe-server", "fail"), Job.class)) {
                assertThat(app.bean(Job.class).run()).isEqualTo("ran");
                assertThat(EvictingServerTest.readiness(app).getStatus()).isEqualTo(Status.UP);
            }
        }
    }

    @Test
    void failStopsTheStartUpForTheApplicationsOwnClientToo() {
        try (RedisServer redis = evicting()) {
            Map<String, String> config = new HashMap<>();
            config.put("padlock.redis.unsafe-server", "fail");
            config.put(APPLICATION_CLIENT_ADDRESS, redis.uri());

            RuntimeException failure;
            try {
                failure = Deployment.failing(config, ClientProducer.class, Job.class);
            } finally {
                // The client is the application's: a container that failed to deploy does not dispose of it.
                ClientProducer.CREATED.forEach(RedissonClient::shutdown);
                ClientProducer.CREATED.clear();
            }

            assertThat(Refusal.text(failure))
                    .contains(
                            "padlock.redis.unsafe-server=fail stops the start-up", "maxmemory-policy is volatile-lru");
        }
    }

    /**
     * A server Padlock cannot reach at start-up cannot be checked then: the application starts (Padlock's client
     * connects in the background, as always), says so, and is not ready until the server is reached and found safe.
     */
    @Test
    void failStartsWhenRedisCannotBeReachedYetAndStaysNotReady() {
        try (PadlockLog log = new PadlockLog();
                Deployment app = Deployment.start(
                        Map.of(
                                "padlock.redis.address",
                                "redis://127.0.0.1:" + closedPort(),
                                "padlock.redis.unsafe-server",
                                "fail"),
                        Job.class)) {
            // Redisson gives up on a closed port after its retries; a loaded machine may take longer than the wait.
            assertThat(log.serverCheck(Level.WARNING))
                    .singleElement()
                    .asString()
                    .startsWith("Padlock could not check the Redis server before the start-up"
                            + " (padlock.redis.unsafe-server=fail): ")
                    .endsWith(". It is checked once reached; readiness stays down until it is found safe.");
            Waits.until(
                    () -> EvictingServerTest.readiness(app).getStatus() == Status.DOWN,
                    "readiness down while Redis cannot be reached");
        }
    }

    private static RedisServer evicting() {
        RedisServer redis = Redis.startServer();
        redis.command("CONFIG", "SET", "maxmemory", "50mb");
        redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
        return redis;
    }

    /** A port nothing listens on (it was free a moment ago). */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
