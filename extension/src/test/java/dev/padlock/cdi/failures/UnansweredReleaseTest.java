package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import dev.padlock.testing.ReplicationCut;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A release Redis cannot confirm: the master's replica misses its writes as a method ends, so Redisson's unlock gets
 * no replica's confirmation and Redisson retries it for many seconds. The call does not wait that out: it returns once
 * Padlock's release timeout passed, and the lock is reported {@link LockLost.Detection#UNCONFIRMED} for that reason
 * (not for Redisson's own failure, which comes only after its retries), before the caller goes on.
 */
@Tag("firewall") // ReplicationCut: iptables and root, with -Pfirewall-tests
class UnansweredReleaseTest {

    static final List<LockLost> LOSSES = new CopyOnWriteArrayList<>();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "unanswered", key = "{0}")
        public String hold(String key, CountDownLatch started, CountDownLatch release) throws InterruptedException {
            started.countDown();
            release.await(60, TimeUnit.SECONDS);
            return "done";
        }
    }

    @ApplicationScoped
    public static class Losses {
        void record(@Observes LockLost loss) {
            LOSSES.add(loss);
        }
    }

    @Test
    void aReleaseRedisDoesNotConfirmIsReportedUnconfirmedAndTheCallReturns() throws Exception {
        LOSSES.clear();
        try (RedisSentinel sentinel = Redis.startSentinel();
                Deployment app = Deployment.start(
                        Map.of(
                                "padlock.redis.mode", "sentinel",
                                "padlock.redis.nodes", String.join(",", sentinel.sentinelUris()),
                                "padlock.redis.sentinel.master-name", sentinel.masterName()),
                        Work.class,
                        Losses.class)) {
            Work work = app.bean(Work.class);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return work.hold("k", started, release);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            long ended;
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            try (ReplicationCut cut = ReplicationCut.start(sentinel.master(), sentinel.replica())) {
                ended = System.nanoTime();
                release.countDown();
                assertThat(call.get(90, TimeUnit.SECONDS)).isEqualTo("done");
            } finally {
                release.countDown();
            }
            System.out.printf(
                    "UnansweredReleaseTest: the call returned %d ms after its method ended; %s%n",
                    (System.nanoTime() - ended) / 1_000_000, LOSSES);
            assertThat(LOSSES)
                    .as("reported before the call returned")
                    .singleElement()
                    .satisfies(loss -> {
                        assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.UNCONFIRMED);
                        assertThat(loss.cause()).hasMessageContaining("did not confirm the release within 5 s");
                    });
        }
    }
}
