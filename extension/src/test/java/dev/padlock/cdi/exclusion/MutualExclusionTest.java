package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 8 threads x 500 calls on 4 keys of a method that does a racy read-modify-write of a plain field: with the
 * lock, counts are exact and no two calls of one key overlap; the same body without the lock shows overlaps,
 * which proves the check can fail.
 */
@ExtendWith(RedisExtension.class)
class MutualExclusionTest {

    static final int THREADS = 8;
    static final int CALLS_PER_THREAD = 500;
    static final int KEYS = 4;

    @ApplicationScoped
    public static class Counters {
        final int[] counts = new int[KEYS]; // deliberately not atomic: the lock must protect it
        final AtomicInteger[] inside = new AtomicInteger[KEYS];
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger active = new AtomicInteger();
        final AtomicInteger maxActive = new AtomicInteger();

        public Counters() {
            for (int i = 0; i < KEYS; i++) {
                inside[i] = new AtomicInteger();
            }
        }

        @Locked(value = "counter", key = "{key}", waitTime = "60s")
        public void incrementLocked(int key) {
            increment(key);
        }

        public void incrementUnlocked(int key) {
            increment(key);
        }

        public int[] counts() {
            return counts.clone();
        }

        public int overlaps() {
            return overlaps.get();
        }

        public int maxActive() {
            return maxActive.get();
        }

        private void increment(int key) {
            if (inside[key].incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
            int read = counts[key];
            LockSupport.parkNanos(50_000); // widen the race window
            counts[key] = read + 1;
            active.decrementAndGet();
            inside[key].decrementAndGet();
        }
    }

    private static void hammer(Consumer<Integer> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        call.accept((thread + i) % KEYS);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void callsOnTheSameKeyNeverOverlapAndDistinctKeysRunInParallel(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Counters.class)) {
            Counters counters = app.bean(Counters.class);
            hammer(counters::incrementLocked);

            assertThat(counters.overlaps()).isZero();
            assertThat(counters.counts()).containsOnly(THREADS * CALLS_PER_THREAD / KEYS);
            assertThat(counters.maxActive())
                    .as("calls on distinct keys ran at the same time")
                    .isGreaterThan(1);
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    @Test
    void withoutTheLockTheSameWorkloadOverlaps(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Counters.class)) {
            Counters counters = app.bean(Counters.class);
            hammer(counters::incrementUnlocked);

            assertThat(counters.overlaps()).isGreaterThan(0);
            assertThat(counters.counts()).isNotEqualTo(new int[] {1000, 1000, 1000, 1000});
        }
    }
}
