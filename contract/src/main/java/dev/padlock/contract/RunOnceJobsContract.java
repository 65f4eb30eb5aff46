package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockContext;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.OnFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A run-once job ({@code waitTime = "0"}, {@code onFailure = SKIP}) with a hold-at-least keeps its key after a short
 * run until the minimum has passed, so a caller that comes a little later (an instance whose scheduler fires 200 ms
 * after the first run ended) skips instead of running it again; the same job without it runs twice. Each job has a
 * lock name of its own, so the tests do not see each other's keys.
 */
public abstract class RunOnceJobsContract extends Scenario {

    /** Long against a run and a 200 ms gap on a loaded machine, short for a test that waits for it to pass. */
    static final Duration AT_LEAST = Duration.ofSeconds(2);

    /** How much later the second caller comes than the first one's end: a scheduler on a skewed clock. */
    static final long LATER_MILLIS = 200;

    public static final ApplicationUnderTest APPLICATION =
            ApplicationUnderTest.of(Jobs.class).with("padlock.locks.\"configured-job\".hold-at-least", "2s");

    @ApplicationScoped
    public static class Jobs {
        final AtomicInteger runs = new AtomicInteger();

        @Inject
        LockContext lock;

        @Inject
        Locks locks;

        volatile Duration seenHoldAtLeast;

        @Locked(value = "report", key = "{test}", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast = "2s")
        public Boolean report(String test) {
            seenHoldAtLeast = lock.holdAtLeast();
            runs.incrementAndGet();
            return true;
        }

        /** The control: the same job without a hold-at-least. */
        @Locked(value = "report-released", key = "{test}", waitTime = "0", onFailure = OnFailure.SKIP)
        public Boolean reportReleased(String test) {
            runs.incrementAndGet();
            return true;
        }

        @Locked(value = "configured-job", key = "{test}", waitTime = "0", onFailure = OnFailure.SKIP)
        public Boolean configured(String test) {
            runs.incrementAndGet();
            return true;
        }

        @Locked(
                value = "fenced-job",
                type = LockType.FENCED,
                waitTime = "0",
                onFailure = OnFailure.SKIP,
                holdAtLeast = "2s")
        public Boolean fenced(String test) {
            runs.incrementAndGet();
            return true;
        }

        @Locked(
                value = "spin-job",
                type = LockType.SPIN,
                waitTime = "0",
                onFailure = OnFailure.SKIP,
                holdAtLeast = "2s")
        public Boolean spin(String test) {
            runs.incrementAndGet();
            return true;
        }

        /** How many jobs ran since the last {@link #reset}. A method: the test holds a client proxy. */
        public int runs() {
            return runs.get();
        }

        public void reset() {
            runs.set(0);
        }

        public Duration seenHoldAtLeast() {
            return seenHoldAtLeast;
        }

        /** The job run through {@code Locks}: true when it ran. */
        public boolean coded(String test) {
            return locks.on("coded-job", test)
                    .waitTime(Duration.ZERO)
                    .onFailure(OnFailure.SKIP)
                    .holdAtLeast(AT_LEAST)
                    .run(runs::incrementAndGet);
        }

        /** Runs longer than its hold-at-least. */
        @Locked(value = "long-job", key = "{test}", holdAtLeast = "100ms")
        public void longJob(String test) throws InterruptedException {
            runs.incrementAndGet();
            Thread.sleep(400);
        }
    }

    protected final Jobs jobs() {
        Jobs jobs = bean(Jobs.class);
        jobs.reset();
        return jobs;
    }

    protected static void later() throws InterruptedException {
        Thread.sleep(LATER_MILLIS);
    }

    @Test
    void aShortJobIsNotRunAgainByACallerThatComes200msAfterItEnded() throws InterruptedException {
        String test = "aShortJobIsNotRunAgainByACallerThatComes200msAfterItEnded-" + System.nanoTime();
        Jobs jobs = jobs();
        assertThat(jobs.report(test)).isTrue();
        later();
        assertThat(jobs.report(test)).as("the late caller skips").isNull();
        assertThat(jobs.runs()).isEqualTo(1);
        assertThat(jobs.seenHoldAtLeast()).isEqualTo(AT_LEAST);
    }

    @Test
    void withoutAHoldAtLeastTheLateCallerRunsTheJobAgain() throws InterruptedException {
        String test = "withoutAHoldAtLeastTheLateCallerRunsTheJobAgain-" + System.nanoTime();
        Jobs jobs = jobs();
        assertThat(jobs.reportReleased(test)).isTrue();
        later();
        assertThat(jobs.reportReleased(test))
                .as("the control: its key was released")
                .isTrue();
        assertThat(jobs.runs()).isEqualTo(2);
    }

    @Test
    void anotherApplicationCannotTakeTheKeyBeforeTheMinimumHasPassed() throws InterruptedException {
        String test = "anotherApplicationCannotTakeTheKeyBeforeTheMinimumHasPassed-" + System.nanoTime();
        Jobs jobs = jobs();
        jobs.report(test);
        later();
        RedissonClient other = otherApplication();
        try {
            assertThat(other.getLock("padlock:report:" + test).tryLock(0, 10, TimeUnit.SECONDS))
                    .as("another client's try, as a second instance's call")
                    .isFalse();
            awaitGone("padlock:report:" + test);
            assertThat(other.getLock("padlock:report:" + test).tryLock(0, 10, TimeUnit.SECONDS))
                    .as("once the minimum has passed")
                    .isTrue();
            other.getLock("padlock:report:" + test).unlock();
        } finally {
            other.shutdown();
        }
    }

    /**
     * Bounds by causality, not by timing: the key cannot expire before the call began plus the minimum (the call took
     * it after it began), nor live longer than the minimum from when the call ended.
     */
    @Test
    void theKeyExpiresAtTheMinimumAndNotBefore() {
        String test = "theKeyExpiresAtTheMinimumAndNotBefore-" + System.nanoTime();
        Jobs jobs = jobs();
        long began = System.nanoTime();
        jobs.report(test);
        long ttl = redisson().getKeys().remainTimeToLive("padlock:report:" + test);
        long ttlAnswered = System.nanoTime();
        assertThat(ttl).as("time to live right after the call").isBetween(1L, AT_LEAST.toMillis());
        assertThat(millis(ttlAnswered - began) + ttl)
                .as("expiry, counted from the call's start")
                .isGreaterThanOrEqualTo(AT_LEAST.toMillis() - 1);

        long gone = awaitGone("padlock:report:" + test);
        assertThat(millis(gone - began))
                .as("the key was seen gone no sooner than the minimum after the call began")
                .isGreaterThanOrEqualTo(AT_LEAST.toMillis() - 1);
        assertThat(jobs.report(test))
                .as("once it expired, the next occurrence runs")
                .isTrue();
        assertThat(jobs.runs()).isEqualTo(2);
    }

    @Test
    void aJobLongerThanItsHoldAtLeastReleasesAtItsEnd() throws InterruptedException {
        String test = "aJobLongerThanItsHoldAtLeastReleasesAtItsEnd-" + System.nanoTime();
        Jobs jobs = jobs();
        jobs.longJob(test);
        assertThat(redisson().getKeys().countExists("padlock:long-job:" + test))
                .as("released when it ended")
                .isZero();
    }

    @Test
    void fencedAndSpinLocksAreHeldAtLeastToo() throws InterruptedException {
        String test = "fencedAndSpinLocksAreHeldAtLeastToo-" + System.nanoTime();
        Jobs jobs = jobs();
        assertThat(jobs.fenced(test)).isTrue();
        assertThat(jobs.spin(test)).isTrue();
        later();
        assertThat(jobs.fenced(test)).isNull();
        assertThat(jobs.spin(test)).isNull();
        assertThat(jobs.runs()).isEqualTo(2);
    }

    @Test
    void aHoldAtLeastCanBeConfiguredPerLock() throws InterruptedException {
        String test = "aHoldAtLeastCanBeConfiguredPerLock-" + System.nanoTime();
        Jobs jobs = jobs();
        assertThat(jobs.configured(test)).isTrue();
        later();
        assertThat(jobs.configured(test)).isNull();
        assertThat(jobs.runs()).isEqualTo(1);
    }

    @Test
    void codeRunThroughLocksIsHeldAtLeastToo() throws InterruptedException {
        String test = "codeRunThroughLocksIsHeldAtLeastToo-" + System.nanoTime();
        Jobs jobs = jobs();
        assertThat(jobs.coded(test)).isTrue();
        later();
        assertThat(jobs.coded(test)).isFalse();
        assertThat(jobs.runs()).isEqualTo(1);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /**
     * Waits until {@code key} is gone; returns when the answer that said so arrived ({@link System#nanoTime}), which is
     * after Redis found it expired.
     */
    private long awaitGone(String key) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - end < 0) {
            boolean gone = redisson().getKeys().countExists(key) == 0;
            long answered = System.nanoTime();
            if (gone) {
                return answered;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + key + " to expire", e);
            }
        }
        throw new AssertionError(key + " still exists 30 s later");
    }

    private static RedissonClient otherApplication() {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(ConfigProvider.getConfig().getValue(ApplicationUnderTest.REDIS_ADDRESS, String.class));
        return Redisson.create(config);
    }
}
