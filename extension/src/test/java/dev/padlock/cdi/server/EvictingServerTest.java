package dev.padlock.cdi.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.cdi.leases.LeaseLossTest.Losses;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.redisserver.RedisReplyException;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ServerOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

/**
 * Issue #41's scenario: a Redis with a {@code maxmemory} and {@code maxmemory-policy volatile-lru}, the default of the
 * big cloud services. The server check says at start-up that it can evict every lock (a WARN naming the setting, the
 * policy and the fix), and with {@code padlock.redis.unsafe-server=not-ready} readiness is down with the finding. Then
 * the server fills up with data that has no TTL, evicts the one key that has one, the lock of a running call, and the
 * holder's next renewal reports the loss. No password anywhere. {@link SafeServerTest} is the control.
 */
class EvictingServerTest {

    static final String SECRET = "ev1ct-Pa55";
    static final String LOCK_KEY = "padlock:evictable";

    @ApplicationScoped
    public static class Holder {
        private final CountDownLatch holding = new CountDownLatch(1);
        private final CountDownLatch done = new CountDownLatch(1);

        @Locked("evictable")
        public String hold() throws InterruptedException {
            holding.countDown();
            done.await();
            return "done";
        }

        public CountDownLatch holding() {
            return holding;
        }

        public void finish() {
            done.countDown();
        }
    }

    @Test
    void theCheckWarnsAtStartUpAndTheLockIsEvictedWhenTheServerFillsUp() throws Exception {
        try (RedisServer redis = Redis.startServer(ServerOptions.defaults().requirePass(SECRET));
                PadlockLog log = new PadlockLog()) {
            redis.command("CONFIG", "SET", "maxmemory", "4mb");
            redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            String node = redis.host() + ":" + redis.port();
            try (Deployment app = Deployment.start(config(redis), Holder.class, Losses.class)) {
                Waits.until(() -> !log.serverCheck(Level.WARNING).isEmpty(), "the server check's WARN");
                assertThat(log.serverCheck(Level.WARNING))
                        .singleElement()
                        .asString()
                        .startsWith("Redis at " + node + " can evict lock keys: maxmemory-policy is volatile-lru with"
                                + " maxmemory 4.00M")
                        .contains("CONFIG SET maxmemory-policy noeviction")
                        .endsWith("Readiness stays down until it is fixed (padlock.redis.unsafe-server=not-ready).");

                HealthCheckResponse down = ReadinessContract.awaitResponse(
                        () -> readiness(app), r -> r.getData().orElseThrow().containsKey("findings"));
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat(down.getData().orElseThrow())
                        .containsEntry(
                                "reason",
                                "the Redis server can void locks (see findings), and"
                                        + " padlock.redis.unsafe-server=not-ready keeps readiness down until that is"
                                        + " fixed");
                assertThat(String.valueOf(down.getData().orElseThrow().get("findings")))
                        .startsWith("UNSAFE: Redis at " + node + " can evict lock keys: maxmemory-policy is"
                                + " volatile-lru");

                // Readiness is only advice: a call still locks, and its key carries a TTL like every lock.
                Holder holder = app.bean(Holder.class);
                CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                    try {
                        return holder.hold();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Waits.await(holder.holding());
                assertThat(redis.command("PTTL", LOCK_KEY)).isInstanceOf(Long.class);
                assertThat((Long) redis.command("PTTL", LOCK_KEY)).isPositive();

                int written = fillUntilGone(redis);

                assertThat(written)
                        .as("keys written before the lock was evicted")
                        .isPositive();
                assertThat(evictedKeys(redis)).as("evicted_keys").isEqualTo(1);
                Losses losses = app.bean(Losses.class);
                Waits.until(() -> !losses.seen().isEmpty(), "the holder hearing of its loss");
                assertThat(losses.seen()).singleElement().satisfies(loss -> {
                    assertThat(loss.lockKey()).isEqualTo(LOCK_KEY);
                    assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.RENEWAL);
                });
                assertThat(log.warnings()).anyMatch(line -> line.contains("Lock " + LOCK_KEY) && line.contains("lost"));

                holder.finish();
                assertThat(call.get()).isEqualTo("done");
                assertThat(String.valueOf(readiness(app).getData())).doesNotContain(SECRET);
            }
            assertThat(log.all()).doesNotContain(SECRET);
        }
    }

    /**
     * Writes 100 kB values without a TTL until the lock key is gone: {@code volatile-lru} evicts only keys with a TTL,
     * and the lock is the one key that has one. Returns how many were written. The write that made the server evict it
     * may be refused (evicting the lock did not free enough); a write refused while the lock is still there fails.
     */
    static int fillUntilGone(RedisServer redis) {
        String value = "x".repeat(100_000);
        int written = 0;
        while ((Long) redis.command("EXISTS", LOCK_KEY) == 1L) {
            assertThat(written).as("writes before the lock is evicted").isLessThan(1_000);
            try {
                redis.command("SET", "fill:" + written, value);
                written++;
            } catch (RedisReplyException refused) {
                assertThat((Long) redis.command("EXISTS", LOCK_KEY))
                        .as("the lock is gone when the server refuses a write (%s)", refused.getMessage())
                        .isZero();
            }
        }
        return written;
    }

    /** Writes like {@link #fillUntilGone} until the server refuses one for lack of memory; returns that reply. */
    static String fillUntilRefused(RedisServer redis) {
        String value = "x".repeat(100_000);
        for (int written = 0; written < 1_000; written++) {
            try {
                redis.command("SET", "fill:" + written, value);
            } catch (RedisReplyException e) {
                return e.getMessage();
            }
        }
        throw new AssertionError("the server took 100 MB within a 4 MB maxmemory");
    }

    static long evictedKeys(RedisServer redis) {
        String stats = String.valueOf(redis.command("INFO", "stats"));
        return stats.lines()
                .filter(line -> line.startsWith("evicted_keys:"))
                .mapToLong(line ->
                        Long.parseLong(line.substring("evicted_keys:".length()).trim()))
                .findFirst()
                .orElseThrow();
    }

    static HealthCheckResponse readiness(Deployment app) {
        return app.bean(HealthCheck.class, Readiness.Literal.INSTANCE).call();
    }

    private static Map<String, String> config(RedisServer redis) {
        return Map.of(
                "padlock.redis.address",
                redis.uri(),
                "padlock.redis.password",
                SECRET,
                "padlock.redis.unsafe-server",
                "not-ready",
                // renewed every 400 ms, so the renewal finds the evicted key soon
                "padlock.watchdog-timeout",
                "1200ms");
    }
}
