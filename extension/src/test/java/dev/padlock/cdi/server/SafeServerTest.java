package dev.padlock.cdi.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.cdi.leases.LeaseLossTest.Losses;
import dev.padlock.cdi.server.EvictingServerTest.Holder;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

/**
 * The control of {@link EvictingServerTest}: the same {@code maxmemory} with {@code noeviction}, and an append-only
 * file. The server check says nothing at all, readiness is up (under {@code not-ready}) without findings, and when the
 * server fills up it refuses the writes and keeps the lock, which is renewed and never lost.
 */
class SafeServerTest {

    @Test
    void aServerThatNeitherEvictsNorForgetsLocksEarnsNoWordAndKeepsTheLock() throws Exception {
        try (RedisServer redis = Redis.startServer();
                PadlockLog log = new PadlockLog()) {
            redis.command("CONFIG", "SET", "maxmemory", "4mb");
            redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            redis.command("CONFIG", "SET", "appendonly", "yes");
            try (Deployment app = Deployment.start(
                    Map.of(
                            "padlock.redis.address", redis.uri(),
                            "padlock.redis.unsafe-server", "not-ready",
                            "padlock.watchdog-timeout", "1200ms"),
                    Holder.class,
                    Losses.class)) {
                // not-ready is down until the first check: up means the check ran and found nothing
                HealthCheckResponse up = ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app), r -> r.getStatus() == Status.UP);
                assertThat(up.getData().orElseThrow()).doesNotContainKeys("findings", "reason");
                assertThat(log.serverCheck()).as("what the server check said").isEmpty();

                Holder holder = app.bean(Holder.class);
                CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                    try {
                        return holder.hold();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Waits.await(holder.holding());

                assertThat(EvictingServerTest.fillUntilRefused(redis)).startsWith("OOM");

                long ttl = (Long) redis.command("PTTL", EvictingServerTest.LOCK_KEY);
                Waits.until(
                        () -> (Long) redis.command("PTTL", EvictingServerTest.LOCK_KEY) > ttl,
                        "a renewal of the lock on the full server");
                assertThat(EvictingServerTest.evictedKeys(redis))
                        .as("evicted_keys")
                        .isZero();
                // Redisson's unlock script would be refused on a full server (it decrements a counter first).
                redis.command("CONFIG", "SET", "maxmemory", "0");
                holder.finish();
                assertThat(call.get()).isEqualTo("done");
                assertThat(app.bean(Losses.class).seen()).isEmpty();
                assertThat(log.warnings()).isEmpty();
            }
        }
    }
}
