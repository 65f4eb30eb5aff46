package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.CommandStats;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's blocking acquisition, interrupted after its script was sent, takes the key and still throws; with
 * the watchdog the key is then held for ever (its issue #5358). Padlock must leave no key behind.
 */
@ExtendWith(RedisExtension.class)
class InterruptedCallerTest {

    static final int CALLS = 1500;

    @ApplicationScoped
    public static class Guarded {
        @Locked(value = "guarded", key = "{id}", waitTime = "2s")
        public String work(int id) {
            return "ran";
        }
    }

    /**
     * Waits (bounded) for acquisitions still in flight when their callers gave up, then lists what is held.
     * The key set must stay empty for a second: an acquisition may still land just after a first empty look.
     */
    private static List<?> keysLeftAfterSettling(RedisServer redis, String pattern) throws InterruptedException {
        List<?> keys = List.of();
        int emptyLooks = 0;
        for (int i = 0; i < 100 && emptyLooks < 10; i++) {
            keys = (List<?>) redis.command("KEYS", pattern);
            emptyLooks = keys.isEmpty() ? emptyLooks + 1 : 0;
            Thread.sleep(100);
        }
        return keys;
    }

    @BeforeEach
    void startFromAnEmptyServer(RedisServer redis) {
        redis.flushAll(); // the server is shared by this class's tests
    }

    /**
     * One thread calls {@code call} {@link #CALLS} times while another interrupts it at random moments.
     *
     * @return how many calls were interrupted
     */
    private static int underRandomInterrupts(IntConsumer call) throws InterruptedException {
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger interrupted = new AtomicInteger();
        Thread worker = new Thread(() -> {
            for (int i = 0; i < CALLS; i++) {
                try {
                    call.accept(i % 4);
                } catch (RuntimeException e) {
                    if (Thread.interrupted() || e.getCause() instanceof InterruptedException) {
                        interrupted.incrementAndGet();
                    }
                } finally {
                    Thread.interrupted();
                }
            }
            done.set(true);
        });
        worker.start();
        while (!done.get()) {
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(50_000, 400_000));
            worker.interrupt();
        }
        worker.join(60_000);
        return interrupted.get();
    }

    @Test
    void interruptsAtRandomMomentsLeaveNoLockBehind(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Guarded.class)) {
            Guarded guarded = app.bean(Guarded.class);
            int interrupted = underRandomInterrupts(guarded::work);
            assertThat(interrupted).as("the run did interrupt calls").isGreaterThan(0);
            assertThat(keysLeftAfterSettling(redis, "padlock:*")).isEmpty();
        }
    }

    /** The control that shows the check can fail: raw Redisson's blocking tryLock under the same interrupts. */
    @Test
    void rawRedissonLeaksLocksOfInterruptedCallers(RedisServer redis) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient raw = Redisson.create(config);
        try {
            underRandomInterrupts(id -> {
                RLock lock = raw.getLock("raw:" + id);
                boolean taken;
                try {
                    taken = lock.tryLock(2, -1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e); // what a naive interceptor treats as "not acquired"
                }
                if (taken) {
                    lock.unlock();
                }
            });
            Thread.sleep(500);
            assertThat((List<?>) redis.command("KEYS", "raw:*"))
                    .as("keys raw Redisson left held")
                    .isNotEmpty();
        } finally {
            raw.shutdown();
            redis.flushAll();
        }
    }

    @Test
    void anInterruptedCallerFailsClosedWithoutTouchingRedis(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Guarded.class)) {
            Guarded guarded = app.bean(Guarded.class);
            assertThat(guarded.work(0)).isEqualTo("ran"); // client connected
            // settled: that call's unlock-latch DEL may still be on its way when it returns
            CommandStats before = redis.settledCommandStats();
            for (int i = 0; i < 100; i++) {
                Thread.currentThread().interrupt();
                Throwable t = catchThrowable(() -> guarded.work(0));
                assertThat(Thread.interrupted())
                        .as("the interrupt flag is kept for the caller")
                        .isTrue();
                assertThat(t)
                        .isInstanceOf(LockNotAcquiredException.class)
                        .hasCauseInstanceOf(InterruptedException.class)
                        .hasMessageContaining("interrupted");
            }
            Map<String, Long> sent =
                    new TreeMap<>(redis.commandStats().minus(before).asMap());
            // Redisson pings each pooled connection every 30 s on its own; a ping can land in this window.
            sent.remove("ping");
            assertThat(sent).as("commands sent for interrupted calls").isEmpty();
        }
    }

    @Test
    void aCallerInterruptedWhileWaitingLeavesNoLockBehind(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Guarded.class)) {
            Guarded guarded = app.bean(Guarded.class);
            RLock holder = app.bean(RedissonClient.class).getLock("padlock:guarded:1");
            for (int round = 0; round < 20; round++) {
                assertThat(holder.tryLockAsync(10_000, -1, TimeUnit.MILLISECONDS, -7L)
                                .get())
                        .isTrue();
                CountDownLatch started = new CountDownLatch(1);
                AtomicBoolean failedClosed = new AtomicBoolean();
                Thread waiter = new Thread(() -> {
                    started.countDown();
                    failedClosed.set(catchThrowable(() -> guarded.work(1)) instanceof LockNotAcquiredException);
                });
                waiter.start();
                started.await();
                Thread.sleep(20);
                waiter.interrupt();
                // the holder lets go while the waiter's acquisition may still be in flight
                holder.unlockAsync(-7L).get();
                waiter.join(10_000);
                assertThat(waiter.isAlive()).isFalse();
                assertThat(failedClosed).isTrue();
            }
            assertThat(keysLeftAfterSettling(redis, "padlock:*")).isEmpty();
        }
    }
}
