package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Callers;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.MixedLockTypes;
import dev.padlock.contract.MixedLockTypes.ReadAndWrite;
import dev.padlock.contract.MixedLockTypes.SameTypes;
import dev.padlock.contract.MixedLockTypes.StockAndOneItem;
import dev.padlock.contract.Refusal;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
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
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Every method and named lock bean that can reach one Redis key must use one lock type (READ and WRITE are one
 * family): Redisson's lock families do not see each other's holders. The first tests show the overlap on a real
 * Redis; the others that the deployment refuses every such mix of {@link MixedLockTypes} and accepts the rest.
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

    @Test
    void reentrantAndReadOnOneNameAreRefused() {
        OnWeld.checkRefused(MixedLockTypes.REENTRANT_AND_READ);
    }

    @Test
    void fairAndReentrantOnOneNameAreRefused() {
        OnWeld.checkRefused(MixedLockTypes.FAIR_AND_REENTRANT);
    }

    @Test
    void aNamedLockBeanAndAReadMethodOnOneNameAreRefused() {
        OnWeld.checkRefused(MixedLockTypes.NAMED_LOCK_AND_READ);
    }

    @Test
    void aNamedLockBeanAndAFairMethodOnOneNameAreRefused() {
        OnWeld.checkRefused(MixedLockTypes.NAMED_LOCK_AND_FAIR);
    }

    @Test
    void aConfiguredTypeThatMixesTypesIsRefused(RedisServer redis) {
        Refusal refusal = MixedLockTypes.CONFIGURED_TYPE;
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri()),
                refusal.application().beanClasses())) {
            assertThat(app.bean(StockAndOneItem.class)).isNotNull();
        }
        OnWeld.checkRefused(refusal);
    }

    @Test
    void everyMixIsRefusedInOneDeploymentAndTheRestIsNotNamed() {
        OnWeld.checkRefused(MixedLockTypes.ALL_AT_ONCE);
    }

    @Test
    void readAndWriteShareANameAndSameTypesAreAccepted(RedisServer redis) {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), MixedLockTypes.ACCEPTED.beanClasses())) {
            assertThat(app.bean(ReadAndWrite.class)).isNotNull();
            assertThat(app.bean(SameTypes.class)).isNotNull();
        }
    }
}
