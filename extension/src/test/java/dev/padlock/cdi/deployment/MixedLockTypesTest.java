package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Callers;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Every method and named lock bean that can reach one Redis key must use one lock type (READ and WRITE are one
 * family): Redisson's lock families do not see each other's holders. The first tests show the overlap on a real
 * Redis; the others that the deployment refuses every such mix and accepts the rest.
 */
@ExtendWith(RedisExtension.class)
class MixedLockTypesTest {

    @Test
    void aReentrantLockAndAReadLockOnOneKeyAreHeldAtOnce(RedisServer redis) throws Exception {
        Overlap overlap = overlap(
                redis, c -> c.getLock("mixed"), c -> c.getReadWriteLock("mixed").readLock());
        assertThat(overlap.maxInside()).isEqualTo(2);
        // and the reader's release deleted the first holder's entry with its own
        assertThat(overlap.firstHolderFoundItsLockGone()).isTrue();
    }

    @Test
    void twoReentrantLocksOnOneKeyAreNot(RedisServer redis) throws Exception {
        Overlap overlap = overlap(redis, c -> c.getLock("same"), c -> c.getLock("same"));
        assertThat(overlap.maxInside()).isEqualTo(1);
        assertThat(overlap.firstHolderFoundItsLockGone()).isFalse();
    }

    record Overlap(int maxInside, boolean firstHolderFoundItsLockGone) {}

    /**
     * A first thread takes {@code first} and stays inside until a second thread has tried {@code second} once;
     * counts how many were inside at the same time.
     */
    private static Overlap overlap(
            RedisServer redis, Function<RedissonClient, RLock> first, Function<RedissonClient, RLock> second)
            throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient client = Redisson.create(config);
        try {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger max = new AtomicInteger();
            AtomicBoolean gone = new AtomicBoolean();
            CountDownLatch firstInside = new CountDownLatch(1);
            CountDownLatch secondTried = new CountDownLatch(1);
            Callers holder = Callers.start(1, c -> {
                RLock lock = first.apply(client);
                lock.lock(10, TimeUnit.SECONDS);
                try {
                    max.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    firstInside.countDown();
                    assertThat(secondTried.await(30, TimeUnit.SECONDS)).isTrue();
                    inside.decrementAndGet();
                } finally {
                    try {
                        lock.unlock();
                    } catch (IllegalMonitorStateException e) {
                        gone.set(true);
                    }
                }
            });
            Callers other = Callers.start(1, c -> {
                assertThat(firstInside.await(30, TimeUnit.SECONDS)).isTrue();
                RLock lock = second.apply(client);
                try {
                    if (lock.tryLock(0, 10, TimeUnit.SECONDS)) {
                        try {
                            max.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                    }
                } finally {
                    secondTried.countDown();
                }
            });
            other.await();
            holder.await();
            return new Overlap(max.get(), gone.get());
        } finally {
            client.shutdown();
        }
    }

    @ApplicationScoped
    public static class ReentrantAndRead {
        @Locked(value = "catalog", key = "{id}")
        public void update(String id) {}

        @Locked(value = "catalog", key = "{id}", type = LockType.READ)
        public void read(String id) {}
    }

    @ApplicationScoped
    public static class FairAndReentrant {
        @Locked(value = "queue", type = LockType.FAIR)
        public void fair() {}

        @Locked("queue")
        public void plain() {}
    }

    @ApplicationScoped
    public static class NamedLockAndRead {
        @Inject
        @Named("report")
        RLock report;

        @Locked(value = "report", type = LockType.READ)
        public void read() {}
    }

    /** "stock" keyed by sku reaches "padlock:stock:eu-42", the key of the other method. */
    @ApplicationScoped
    public static class StockAndOneItem {
        @Locked(value = "stock", key = "{sku}")
        public void reserve(String sku) {}

        @Locked("stock:eu-42")
        public void reserveEu42() {}
    }

    @ApplicationScoped
    public static class ReadAndWrite {
        @Inject
        @Named("prices")
        RReadWriteLock prices;

        @Locked(value = "prices", key = "{id}", type = LockType.READ)
        public void read(String id) {}

        @Locked(value = "prices", key = "{id}", type = LockType.WRITE)
        public void write(String id) {}

        @Locked(value = "prices", type = LockType.WRITE)
        public void writeAll() {}
    }

    @ApplicationScoped
    public static class SameTypes {
        @Inject
        @Named("jobs")
        RLock jobs;

        @Locked(value = "jobs", key = "{id}")
        public void one(String id) {}

        @Locked("jobs")
        public void all() {}

        @Locked(value = "queue", type = LockType.FAIR)
        public void first() {}

        @Locked(value = "queue", key = "{id}", type = LockType.FAIR)
        public void second(String id) {}
    }

    private static String failure(Map<String, String> config, Class<?>... beans) {
        RuntimeException failure = Deployment.failing(config, beans);
        String all = failure.toString() + failure.getCause();
        for (Throwable s : failure.getSuppressed()) {
            all += s;
        }
        return all;
    }

    @Test
    void reentrantAndReadOnOneNameAreRefused() {
        String bean = ReentrantAndRead.class.getName();
        assertThat(failure(Map.of(), ReentrantAndRead.class))
                .contains("Invalid @Locked.type on " + bean + "#read(String): the lock \"catalog\" is taken"
                        + " with different types: READ by " + bean + "#read(String), REENTRANT by " + bean
                        + "#update(String).")
                .contains("Use one type for every lock named \"catalog\" (READ and WRITE may share one)");
    }

    @Test
    void fairAndReentrantOnOneNameAreRefused() {
        String bean = FairAndReentrant.class.getName();
        assertThat(failure(Map.of(), FairAndReentrant.class))
                .contains("Invalid @Locked.type on " + bean + "#fair(): the lock \"queue\" is taken with different"
                        + " types: FAIR by " + bean + "#fair(), REENTRANT by " + bean + "#plain().");
    }

    @Test
    void aNamedLockBeanAndAReadMethodOnOneNameAreRefused() {
        String bean = NamedLockAndRead.class.getName();
        assertThat(failure(Map.of(), NamedLockAndRead.class))
                .contains("the lock \"report\" is taken with different types: READ by " + bean + "#read(), REENTRANT"
                        + " by the RLock injected at field " + bean + ".report.");
    }

    @Test
    void aConfiguredTypeThatMixesTypesIsRefused(RedisServer redis) {
        Map<String, String> config = new HashMap<>(Map.of("padlock.redis.address", redis.uri()));
        try (Deployment app = Deployment.start(config, StockAndOneItem.class)) {
            assertThat(app.bean(StockAndOneItem.class)).isNotNull();
        }
        config.put("padlock.locks.\"stock:eu-42\".type", "fair");
        String bean = StockAndOneItem.class.getName();
        assertThat(failure(config, StockAndOneItem.class))
                .contains("Invalid @Locked.type on " + bean + "#reserve(String): its keys padlock:stock:<key> can be"
                        + " padlock:stock:eu-42, locked as FAIR (padlock.locks.\"stock:eu-42\".type) by " + bean
                        + "#reserveEu42(), and as REENTRANT here.");
    }

    @Test
    void readAndWriteShareANameAndSameTypesAreAccepted(RedisServer redis) {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), ReadAndWrite.class, SameTypes.class)) {
            assertThat(app.bean(ReadAndWrite.class)).isNotNull();
            assertThat(app.bean(SameTypes.class)).isNotNull();
        }
    }
}
