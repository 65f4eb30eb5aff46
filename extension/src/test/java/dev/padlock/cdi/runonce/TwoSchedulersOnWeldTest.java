package dev.padlock.cdi.runonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two Weld SE applications on one Redis, each with its own Padlock engine and Redis client, run one job from a plain
 * {@code ScheduledExecutorService} each, every 1.5 s; the second one's schedule is 300 ms behind (a skewed clock).
 * With a hold-at-least of 1 s (longer than the skew, shorter than the interval minus it) each occurrence runs once;
 * the control, the same job without it, runs every occurrence in both applications.
 */
class TwoSchedulersOnWeldTest {

    private static final long INTERVAL_MILLIS = 1500;
    private static final long SKEW_MILLIS = 300;
    private static final int OCCURRENCES = 4;

    /** By job, by occurrence: which applications ran it. Static: both applications' beans write here. */
    static final ConcurrentMap<String, ConcurrentMap<Long, List<String>>> RUNS = new ConcurrentHashMap<>();

    @ApplicationScoped
    public static class Report {
        @Locked(value = "report", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast = "1s")
        public void held(long occurrence, String application) {
            ran("held", occurrence, application);
        }

        /** The control: the same job without a hold-at-least. */
        @Locked(value = "report-released", waitTime = "0", onFailure = OnFailure.SKIP)
        public void released(long occurrence, String application) {
            ran("released", occurrence, application);
        }

        private static void ran(String job, long occurrence, String application) {
            RUNS.computeIfAbsent(job, j -> new ConcurrentHashMap<>())
                    .computeIfAbsent(occurrence, o -> new CopyOnWriteArrayList<>())
                    .add(application);
        }
    }

    private static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        redis = Redis.startServer();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @Test
    void eachOccurrenceRunsOnceAcrossTwoApplicationsWithAHoldAtLeast() throws InterruptedException {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri());
        ScheduledExecutorService schedulers = Executors.newScheduledThreadPool(2);
        try (Deployment first = Deployment.start("first", config, Report.class);
                Deployment second = Deployment.start("second", config, Report.class)) {
            Report onFirst = first.bean(Report.class);
            Report onSecond = second.bean(Report.class);
            // connected before the first occurrence, so that the schedules' offset is the only one
            onFirst.released(-1, "warm-up");
            onSecond.released(-1, "warm-up");
            RUNS.clear();

            CountDownLatch done = new CountDownLatch(2 * OCCURRENCES);
            schedule(schedulers, 0, onFirst, "first", done);
            schedule(schedulers, SKEW_MILLIS, onSecond, "second", done);
            assertThat(done.await(30, TimeUnit.SECONDS))
                    .as("every occurrence fired")
                    .isTrue();
        } finally {
            schedulers.shutdownNow();
            schedulers.awaitTermination(10, TimeUnit.SECONDS);
        }

        Map<Long, List<String>> held = new TreeMap<>(RUNS.get("held"));
        Map<Long, List<String>> released = new TreeMap<>(RUNS.get("released"));
        for (long occurrence = 0; occurrence < OCCURRENCES; occurrence++) {
            // once, by whichever application got there first (the first, unless its run was delayed 300 ms)
            assertThat(held.get(occurrence))
                    .as("occurrence %d with a hold-at-least (all: %s)", occurrence, held)
                    .hasSize(1);
            assertThat(released.get(occurrence))
                    .as("occurrence %d, the control (all: %s)", occurrence, released)
                    .containsExactlyInAnyOrder("first", "second");
        }
    }

    /** One application's scheduler: both jobs at each occurrence, starting {@code delay} after the other one's. */
    private static void schedule(
            ScheduledExecutorService schedulers, long delay, Report report, String application, CountDownLatch done) {
        AtomicLong occurrences = new AtomicLong();
        schedulers.scheduleAtFixedRate(
                () -> {
                    long occurrence = occurrences.getAndIncrement();
                    if (occurrence < OCCURRENCES) {
                        report.held(occurrence, application);
                        report.released(occurrence, application);
                        done.countDown();
                    }
                },
                delay,
                INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
    }
}
