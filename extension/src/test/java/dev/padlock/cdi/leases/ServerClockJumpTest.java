package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ServerClock;
import dev.padlock.testing.ServerOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Redis expires keys by its wall clock; Padlock counts a lease on this JVM's monotonic clock. Each renewal's answer
 * carries the server's {@code TIME}, so a server clock stepped forward is seen at the next renewal, and the lock it
 * expired early is reported as {@code CLOCK_JUMP}; a clock that stands still is said once. The server runs with a
 * clock the test steps ({@link ServerClock}); the controls run the same servers with their clocks left alone.
 */
public class ServerClockJumpTest {

    /** A 3 s watchdog: a renewal every second. */
    private static final String WATCHDOG = "3s";

    @ApplicationScoped
    public static class Work {
        @Locked("clocked")
        public String holdUntil(CountDownLatch done) throws InterruptedException {
            done.await(60, TimeUnit.SECONDS);
            return "done";
        }
    }

    @Test
    void aServerClockSteppedAMinuteForwardIsReportedAtTheNextRenewal() throws Exception {
        try (ServerClock clock = ServerClock.create();
                RedisServer redis = Redis.startServer(ServerOptions.defaults().clock(clock));
                Deployment app = deploy(redis)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = hold(app, done);
            try {
                // two renewals: the first one's answer, the one the next is compared with, has surely been read by then
                awaitRenewals(redis, 2);

                clock.step(Duration.ofSeconds(60));
                long renewalsBefore = renewals(redis);
                for (int i = 0; i < 150 && losses.seen().isEmpty(); i++) {
                    Thread.sleep(20);
                }

                assertThat(losses.seen()).singleElement().satisfies(loss -> {
                    assertThat(loss.lockKey()).isEqualTo("padlock:clocked");
                    assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.CLOCK_JUMP);
                    assertThat(loss.describe()).contains("clock");
                });
                assertThat(renewals(redis) - renewalsBefore)
                        .as("reported by the first renewal after the step")
                        .isEqualTo(1);
                assertThat(call).isNotDone();
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(losses.seen()).hasSize(1);
        }
    }

    @Test
    void controlTheSameServerWithItsClockLeftAloneReportsNothing() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (ServerClock clock = ServerClock.create();
                RedisServer redis = Redis.startServer(ServerOptions.defaults().clock(clock));
                LeaseLossTest.Capture capture = LeaseLossTest.Capture.warnings(warnings);
                Deployment app = deploy(redis)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = hold(app, done);
            try {
                awaitRenewals(redis, 4);

                assertThat(losses.seen()).isEmpty();
                assertThat(warnings).noneMatch(line -> line.contains("clock"));
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
        }
    }

    @Test
    void aServerClockThatStandsStillIsSaidOnceAndLosesNothing() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (ServerClock clock = ServerClock.create();
                RedisServer redis = Redis.startServer(ServerOptions.defaults().clock(clock));
                LeaseLossTest.Capture capture = LeaseLossTest.Capture.warnings(warnings);
                Deployment app = deploy(redis)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = hold(app, done);
            try {
                awaitRenewals(redis, 2);

                clock.freeze();
                awaitRenewals(redis, 6);

                assertThat(warnings)
                        .filteredOn(line -> line.contains("stood still"))
                        .as("said once, though every renewal since saw it")
                        .hasSize(1);
                assertThat(losses.seen())
                        .as("a clock that stands still expires nothing early")
                        .isEmpty();
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
        }
    }

    private static Deployment deploy(RedisServer redis) {
        return Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", WATCHDOG),
                Work.class,
                LeaseLossTest.Losses.class);
    }

    private static CompletableFuture<String> hold(Deployment app, CountDownLatch done) throws InterruptedException {
        Work work = app.bean(Work.class);
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
            try {
                return work.holdUntil(done);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        return call;
    }

    /**
     * Renewals the server ran: each of Padlock's renewal scripts reads {@code TIME} once, and nothing else the test
     * runs does (acquisitions and releases are Redisson's scripts, which a busy machine may send twice).
     */
    private static long renewals(RedisServer redis) {
        return redis.commandStats().calls("time");
    }

    /** Waits until {@code count} renewals have run. */
    private static void awaitRenewals(RedisServer redis, int count) throws InterruptedException {
        for (int i = 0; i < 1_000; i++) {
            if (renewals(redis) >= count) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("fewer than " + count + " renewals within 20 s");
    }
}
