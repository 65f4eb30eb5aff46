package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * 8 threads x 500 calls on 4 keys of a method that does a racy read-modify-write of a plain field: with the lock,
 * counts are exact and no two calls of one key overlap; the same body without the lock shows overlaps, which proves
 * the check can fail.
 */
public abstract class MutualExclusionContract extends Scenario {

    static final int THREADS = 8;
    static final int CALLS_PER_THREAD = 500;
    static final int KEYS = 4;

    public static final ApplicationUnderTest APPLICATION = ApplicationUnderTest.of(Counters.class);

    @ApplicationScoped
    public static class Counters {
        private volatile RacyCounts counts = new RacyCounts(KEYS);

        @Locked(value = "counter", key = "{key}", waitTime = "60s")
        public void incrementLocked(int key) {
            counts.increment(key);
        }

        public void incrementUnlocked(int key) {
            counts.increment(key);
        }

        /** Counts from zero, for an application that outlives one test. */
        public void reset() {
            counts = new RacyCounts(KEYS);
        }

        public RacyCounts counts() {
            return counts;
        }
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
    void callsOnTheSameKeyNeverOverlapAndDistinctKeysRunInParallel() throws Exception {
        hammer(counters::incrementLocked);

        assertThat(counts.overlaps()).isZero();
        assertThat(counts.counts()).containsOnly(THREADS * CALLS_PER_THREAD / KEYS);
        assertThat(counts.maxActive())
                .as("calls on distinct keys ran at the same time")
                .isGreaterThan(1);
        assertThat(padlockKeys()).isEmpty();
    }

    @Test
    void withoutTheLockTheSameWorkloadOverlaps() throws Exception {
        hammer(counters::incrementUnlocked);

        assertThat(counts.overlaps()).isGreaterThan(0);
        assertThat(counts.counts()).isNotEqualTo(new int[] {1000, 1000, 1000, 1000});
    }

    private static void hammer(IntConsumer call) throws Exception {
        Workload.run(THREADS, CALLS_PER_THREAD, (thread, i) -> call.accept((thread + i) % KEYS));
    }
}
