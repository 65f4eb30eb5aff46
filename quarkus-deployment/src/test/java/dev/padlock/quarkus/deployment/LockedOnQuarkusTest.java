package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
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
import org.redisson.RedissonFairLock;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;

/** A Quarkus application with @Locked beans on a real Redis: exclusion, named locks, config overrides. */
class LockedOnQuarkusTest {

    static final int THREADS = 8;
    static final int CALLS = 250;
    static final int KEYS = 4;

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Counters.class, Leases.class, Jobs.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("padlock.locks.\"overridden\".lease-time", "3s")
            .overrideConfigKey("padlock.locks.\"orders\".type", "fair")
            // The control of ApplicationClientOnQuarkusTest: Padlock's own client makes none of its keys moot.
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"))
            .assertLogRecords(records -> assertThat(records)
                    .noneMatch(r -> String.valueOf(r.getMessage()).contains("own RedissonClient")));

    @ApplicationScoped
    public static class Counters {
        final int[] counts = new int[KEYS];
        final AtomicInteger[] inside = {
            new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()
        };
        final AtomicInteger overlaps = new AtomicInteger();

        @Locked(value = "q-counter", key = "{key}", waitTime = "60s")
        public void increment(int key) {
            if (inside[key].incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            int read = counts[key];
            LockSupport.parkNanos(50_000);
            counts[key] = read + 1;
            inside[key].decrementAndGet();
        }

        public int[] counts() {
            return counts.clone();
        }

        public int overlaps() {
            return overlaps.get();
        }
    }

    @ApplicationScoped
    @Locked(value = "class-level", leaseTime = "10s")
    public static class Leases {
        @Inject
        RedissonClient redisson;

        public long classLevelTtl() {
            return redisson.getKeys().remainTimeToLive("padlock:class-level");
        }

        @Locked(value = "overridden", leaseTime = "10s")
        public long overriddenTtl() {
            return redisson.getKeys().remainTimeToLive("padlock:overridden");
        }
    }

    @ApplicationScoped
    public static class Jobs {
        @Inject
        @Named("orders")
        RLock orders;

        @Inject
        @Named("catalog")
        RReadWriteLock catalog;

        public RLock orders() {
            return orders;
        }

        public RReadWriteLock catalog() {
            return catalog;
        }
    }

    @Inject
    Counters counters;

    @Inject
    Leases leases;

    @Inject
    Jobs jobs;

    @Test
    void callsOnTheSameKeyNeverOverlap() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < CALLS; i++) {
                        counters.increment((thread + i) % KEYS);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(counters.overlaps()).isZero();
        assertThat(counters.counts()).containsOnly(THREADS * CALLS / KEYS);
    }

    @Test
    void classLevelBindingAndPerLockConfigApply() {
        assertThat(leases.classLevelTtl()).isBetween(1L, 10_000L);
        assertThat(leases.overriddenTtl()).isBetween(1L, 3_000L);
    }

    @Test
    void namedLockBeansUseTheirKeysAndConfiguredType() throws Exception {
        assertThat(jobs.orders()).isInstanceOf(RedissonFairLock.class);
        assertThat(jobs.orders().getName()).isEqualTo("padlock:orders");
        assertThat(jobs.orders().tryLock(0, 5, TimeUnit.SECONDS)).isTrue();
        jobs.orders().unlock();
        assertThat(jobs.catalog().writeLock().getName()).isEqualTo("padlock:catalog");
        assertThat(LockType.FAIR).isNotNull();
    }
}
