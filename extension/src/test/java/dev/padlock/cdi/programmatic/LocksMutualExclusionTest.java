package dev.padlock.cdi.programmatic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Code run through {@code Locks} excludes itself and {@code @Locked} methods of the same name and key: 8 threads x
 * 300 racy read-modify-writes on 4 keys, half of them through a {@code @Locked} method, end with exact counts and no
 * overlap. The same workload without a lock, or with the two front doors rendering different keys, overlaps: the
 * check can fail.
 */
@ExtendWith(RedisExtension.class)
class LocksMutualExclusionTest {

    static final int THREADS = 8;
    static final int CALLS_PER_THREAD = 300;
    static final int KEYS = 4;

    @ApplicationScoped
    public static class Counters {
        final int[] counts = new int[KEYS]; // deliberately not atomic: the lock must protect it
        final AtomicInteger[] inside = new AtomicInteger[KEYS];
        final AtomicInteger overlaps = new AtomicInteger();

        @Inject
        Locks locks;

        public Counters() {
            for (int i = 0; i < KEYS; i++) {
                inside[i] = new AtomicInteger();
            }
        }

        /** The key is only known inside the method, as in the use case Locks exists for. */
        public void incrementInCode(int slot) {
            String sku = "sku-" + slot;
            locks.on("counter", sku).waitTime(java.time.Duration.ofMinutes(1)).run(() -> increment(slot));
        }

        public void incrementInCodeUnderAnotherKey(int slot) {
            locks.on("counter", "other-" + slot)
                    .waitTime(java.time.Duration.ofMinutes(1))
                    .run(() -> increment(slot));
        }

        @Locked(value = "counter", key = "{sku}", waitTime = "60s")
        public void incrementByAnnotation(String sku, int slot) {
            increment(slot);
        }

        public void incrementUnlocked(int slot) {
            increment(slot);
        }

        public int overlaps() {
            return overlaps.get();
        }

        public int[] counts() {
            return counts.clone();
        }

        private void increment(int slot) {
            if (inside[slot].incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            int read = counts[slot];
            LockSupport.parkNanos(50_000); // widen the race window
            counts[slot] = read + 1;
            inside[slot].decrementAndGet();
        }
    }

    interface Call {
        void on(Counters counters, int thread, int slot);
    }

    private static void hammer(Counters counters, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        call.on(counters, thread, (thread + i) % KEYS);
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
    void codeAndAnnotatedMethodsOnOneKeyNeverOverlap(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Counters.class)) {
            Counters counters = app.bean(Counters.class);
            hammer(counters, (c, thread, slot) -> {
                if (thread % 2 == 0) {
                    c.incrementInCode(slot);
                } else {
                    c.incrementByAnnotation("sku-" + slot, slot);
                }
            });

            assertThat(counters.overlaps()).isZero();
            assertThat(counters.counts()).containsOnly(THREADS * CALLS_PER_THREAD / KEYS);
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    @Test
    void controlWithoutTheLockTheWorkloadOverlaps(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Counters.class)) {
            Counters counters = app.bean(Counters.class);
            hammer(counters, (c, thread, slot) -> c.incrementUnlocked(slot));

            assertThat(counters.overlaps()).isGreaterThan(0);
        }
    }

    @Test
    void controlCodeLockingAnotherKeyThanTheMethodOverlapsWithIt(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Counters.class)) {
            Counters counters = app.bean(Counters.class);
            hammer(counters, (c, thread, slot) -> {
                if (thread % 2 == 0) {
                    c.incrementInCodeUnderAnotherKey(slot);
                } else {
                    c.incrementByAnnotation("sku-" + slot, slot);
                }
            });

            assertThat(counters.overlaps()).isGreaterThan(0);
        }
    }
}
