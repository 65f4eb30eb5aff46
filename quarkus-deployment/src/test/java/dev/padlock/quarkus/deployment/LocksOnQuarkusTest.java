package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.Locks;
import io.quarkus.test.QuarkusExtensionTest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * {@code Locks} on Quarkus: injectable, excludes itself and {@code @Locked} methods of the same name and key, reads
 * per-lock configuration, holds a {@code Uni} from subscription, and keeps one type per name.
 */
class LocksOnQuarkusTest {

    static final int THREADS = 4;
    static final int CALLS = 200;

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Counter.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("padlock.locks.\"q-configured\".lease-time", "7s");

    @ApplicationScoped
    public static class Counter {
        int count; // deliberately not atomic: the lock must protect it
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();

        @Inject
        Locks locks;

        @Inject
        LockContext lock;

        @Inject
        RedissonClient redisson;

        @Locked(value = "q-code", key = "{sku}", waitTime = "60s", type = LockType.FAIR)
        public void byAnnotation(String sku) {
            increment();
        }

        public void inCode(String sku) {
            locks.on("q-code", sku)
                    .type(LockType.FAIR)
                    .waitTime(Duration.ofMinutes(1))
                    .run(this::increment);
        }

        public void inCodeWithTheWrongType(String sku) {
            locks.on("q-code", sku).run(this::increment);
        }

        public long configuredLease() {
            return locks.on("q-configured", "k")
                    .leaseTime(Duration.ofSeconds(1))
                    .get(() -> redisson.getKeys().remainTimeToLive(lock.key()));
        }

        public Uni<String> uni() {
            return locks.on("q-uni", "k").uni(() -> {
                String key = lock.key(); // LockContext is there while the code runs, not in the Uni it returns
                return Uni.createFrom().item(key);
            });
        }

        public void tryOnce(String name) {
            locks.on(name, "k").waitTime(Duration.ZERO).run(this::increment);
        }

        public int count() {
            return count;
        }

        public int overlaps() {
            return overlaps.get();
        }

        private void increment() {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            int read = count;
            LockSupport.parkNanos(50_000);
            count = read + 1;
            inside.decrementAndGet();
        }
    }

    @Inject
    Counter counter;

    @Inject
    RedissonClient redisson;

    @Test
    void locksInCodeOnQuarkus() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                boolean code = t % 2 == 0;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < CALLS; i++) {
                        if (code) {
                            counter.inCode("A-1");
                        } else {
                            counter.byAnnotation("A-1");
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(counter.overlaps()).isZero();
        assertThat(counter.count()).isEqualTo(THREADS * CALLS);

        assertThat(counter.configuredLease())
                .as("padlock.locks.\"q-configured\".lease-time beats the call's 1s")
                .isGreaterThan(1_000L);
        assertThat(counter.uni().await().atMost(Duration.ofSeconds(30))).isEqualTo("padlock:q-uni:k");

        assertThat(catchThrowable(() -> counter.inCodeWithTheWrongType("A-1")))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("FAIR by " + Counter.class.getName() + "#byAnnotation(String)");

        RLock other = redisson.getLock("padlock:q-held:k");
        assertThat(other.tryLockAsync(0, 60_000, TimeUnit.MILLISECONDS, -42L).get())
                .isTrue();
        try {
            assertThat(catchThrowable(() -> counter.tryOnce("q-held"))).isInstanceOf(LockNotAcquiredException.class);
        } finally {
            other.unlockAsync(-42L).get();
        }
    }
}
