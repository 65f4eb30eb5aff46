package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Code run through {@code Locks} excludes itself and {@code @Locked} methods of the same name and key: 8 threads x
 * 300 racy read-modify-writes on 4 keys, half of them through a {@code @Locked} method, end with exact counts and no
 * overlap; so do 4 threads x 200 on one key of a {@code FAIR} lock. The same workload without a lock, or with the two
 * front doors rendering different keys, overlaps: the check can fail.
 */
public abstract class LocksMutualExclusionContract extends Scenario {

    static final int THREADS = 8;
    static final int CALLS_PER_THREAD = 300;
    static final int KEYS = 4;
    static final int FAIR_THREADS = 4;
    static final int FAIR_CALLS_PER_THREAD = 200;

    public static final ApplicationUnderTest APPLICATION = ApplicationUnderTest.of(Counters.class);

    @ApplicationScoped
    public static class Counters {
        private volatile RacyCounts counts = new RacyCounts(KEYS);

        @Inject
        Locks locks;

        /** The key is only known inside the method, as in the use case Locks exists for. */
        public void incrementInCode(int slot) {
            String sku = "sku-" + slot;
            locks.on("counter", sku).waitTime(Duration.ofMinutes(1)).run(() -> increment(slot));
        }

        public void incrementInCodeUnderAnotherKey(int slot) {
            locks.on("counter", "other-" + slot).waitTime(Duration.ofMinutes(1)).run(() -> increment(slot));
        }

        @Locked(value = "counter", key = "{sku}", waitTime = "60s")
        public void incrementByAnnotation(String sku, int slot) {
            increment(slot);
        }

        public void incrementFairInCode(String sku) {
            locks.on("fair-counter", sku)
                    .type(LockType.FAIR)
                    .waitTime(Duration.ofMinutes(1))
                    .run(() -> increment(0));
        }

        @Locked(value = "fair-counter", key = "{sku}", waitTime = "60s", type = LockType.FAIR)
        public void incrementFairByAnnotation(String sku) {
            increment(0);
        }

        public void incrementUnlocked(int slot) {
            increment(slot);
        }

        /** Counts from zero, for an application that outlives one test. */
        public void reset() {
            counts = new RacyCounts(KEYS);
        }

        public RacyCounts counts() {
            return counts;
        }

        private void increment(int slot) {
            counts.increment(slot);
        }
    }

    @FunctionalInterface
    interface Call {
        void on(Counters counters, int thread, int slot);
    }

    private Counters counters;
    private RacyCounts counts;

    @BeforeEach
    void freshCounts() {
        counters = bean(Counters.class);
        counters.reset();
        counts = counters.counts();
    }

    @Test
    void codeAndAnnotatedMethodsOnOneKeyNeverOverlap() throws Exception {
        hammer(THREADS, CALLS_PER_THREAD, (c, thread, slot) -> {
            if (thread % 2 == 0) {
                c.incrementInCode(slot);
            } else {
                c.incrementByAnnotation("sku-" + slot, slot);
            }
        });

        assertThat(counts.overlaps()).isZero();
        assertThat(counts.counts()).containsOnly(THREADS * CALLS_PER_THREAD / KEYS);
        assertThat(padlockKeys()).isEmpty();
    }

    @Test
    void codeAndAnnotatedMethodsOfAFairLockOnOneKeyNeverOverlap() throws Exception {
        hammer(FAIR_THREADS, FAIR_CALLS_PER_THREAD, (c, thread, slot) -> {
            if (thread % 2 == 0) {
                c.incrementFairInCode("A-1");
            } else {
                c.incrementFairByAnnotation("A-1");
            }
        });

        assertThat(counts.overlaps()).isZero();
        assertThat(counts.counts()[0]).isEqualTo(FAIR_THREADS * FAIR_CALLS_PER_THREAD);
    }

    @Test
    void controlWithoutTheLockTheWorkloadOverlaps() throws Exception {
        hammer(THREADS, CALLS_PER_THREAD, (c, thread, slot) -> c.incrementUnlocked(slot));

        assertThat(counts.overlaps()).isGreaterThan(0);
    }

    @Test
    void controlCodeLockingAnotherKeyThanTheMethodOverlapsWithIt() throws Exception {
        hammer(THREADS, CALLS_PER_THREAD, (c, thread, slot) -> {
            if (thread % 2 == 0) {
                c.incrementInCodeUnderAnotherKey(slot);
            } else {
                c.incrementByAnnotation("sku-" + slot, slot);
            }
        });

        assertThat(counts.overlaps()).isGreaterThan(0);
    }

    private void hammer(int threads, int callsPerThread, Call call) throws Exception {
        Workload.run(threads, callsPerThread, (thread, i) -> call.on(counters, thread, (thread + i) % KEYS));
    }
}
