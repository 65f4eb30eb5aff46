package dev.padlock.cdi.handoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Callers;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calls of one application queue for an exclusive key before asking Redis (only the first in line asks). What
 * must still hold: a nested call re-enters a key its thread holds, a caller that gives up never strands the
 * queue, and another application is kept out by Redis alone.
 */
@ExtendWith(RedisExtension.class)
class LocalQueueTest {

    @ApplicationScoped
    public static class Queued {
        @Locked(value = "q-outer", key = "{key}")
        public int outer(String key, IntSupplier body) {
            return body.getAsInt();
        }

        @Locked(value = "q-between", key = "{key}")
        public int between(String key, IntSupplier body) {
            return body.getAsInt();
        }

        /** The same Redis key as {@link #outer}, without waiting: only a re-entry can take it while outer holds it. */
        @Locked(value = "q-outer", key = "{key}", waitTime = "0")
        public int inner(String key) {
            return 1;
        }

        @Locked(value = "q-brief", waitTime = "20ms")
        public void brief() {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3));
        }

        @Locked(value = "q-brief", waitTime = "0")
        public boolean now() {
            return true;
        }
    }

    /** A racy read-modify-write on state shared by every application of the JVM. */
    @ApplicationScoped
    public static class SharedCounter {
        static int count;
        static final AtomicInteger INSIDE = new AtomicInteger();
        static final AtomicInteger OVERLAPS = new AtomicInteger();

        @Locked(value = "q-shared", waitTime = "60s")
        public void increment() {
            if (INSIDE.incrementAndGet() > 1) {
                OVERLAPS.incrementAndGet();
            }
            int read = count;
            LockSupport.parkNanos(50_000);
            count = read + 1;
            INSIDE.decrementAndGet();
        }
    }

    @BeforeEach
    void reset(RedisServer redis) {
        redis.flushAll();
        SharedCounter.count = 0;
        SharedCounter.OVERLAPS.set(0);
    }

    @Test
    void aNestedCallReentersAKeyItsThreadHolds(RedisServer redis) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Queued.class)) {
            Queued queued = app.bean(Queued.class);

            assertThat(queued.outer("a", () -> queued.inner("a"))).isEqualTo(1);
            assertThat(queued.outer("a", () -> queued.between("a", () -> queued.inner("a"))))
                    .as("re-entered through a call on another key")
                    .isEqualTo(1);
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    /**
     * Callers give up while queued (their wait runs out, or they are interrupted), while asking Redis (another
     * application holds the key too), and while holding the lock. Afterwards each application's queue is free.
     */
    @Test
    void callersThatGiveUpNeverStrandTheQueue(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri());
        try (Deployment first = Deployment.start(config, Queued.class);
                Deployment second = Deployment.start("second", config, Queued.class)) {
            Queued one = first.bean(Queued.class);
            Queued other = second.bean(Queued.class);
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger gaveUp = new AtomicInteger();
            Callers callers = Callers.start(8, caller -> {
                Queued queued = caller % 4 == 3 ? other : one;
                for (int i = 0; i < 150; i++) {
                    try {
                        queued.brief();
                        ran.incrementAndGet();
                    } catch (LockNotAcquiredException e) {
                        gaveUp.incrementAndGet(); // the wait ran out, or the caller was interrupted
                        Thread.interrupted();
                    }
                }
            });
            while (callers.anyRunning()) {
                // interrupts land while callers queue, while they ask Redis, and while they hold the lock
                callers.interruptOneAtRandom();
                Thread.sleep(ThreadLocalRandom.current().nextInt(1, 8));
            }
            callers.await();

            assertThat(ran.get()).as("calls that held the lock").isPositive();
            assertThat(gaveUp.get()).as("calls that gave up waiting").isPositive();
            // a turn still held by a caller that went away would refuse these at once
            assertThat(one.now()).isTrue();
            assertThat(other.now()).isTrue();
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    @Test
    void anotherApplicationIsKeptOutByRedis(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri());
        try (Deployment first = Deployment.start(config, SharedCounter.class);
                Deployment second = Deployment.start("second", config, SharedCounter.class)) {
            hammer(first.bean(SharedCounter.class), second.bean(SharedCounter.class));

            assertThat(SharedCounter.OVERLAPS.get()).isZero();
            assertThat(SharedCounter.count).isEqualTo(2 * 4 * 200);
        }
    }

    /** The control: the same two applications on different keys queue only among themselves, and overlap. */
    @Test
    void theQueueAloneDoesNotKeepAnotherApplicationOut(RedisServer redis) throws Exception {
        try (Deployment first = Deployment.start(
                        Map.of("padlock.redis.address", redis.uri(), "padlock.key-prefix", "first:"),
                        SharedCounter.class);
                Deployment second = Deployment.start(
                        "second",
                        Map.of("padlock.redis.address", redis.uri(), "padlock.key-prefix", "second:"),
                        SharedCounter.class)) {
            hammer(first.bean(SharedCounter.class), second.bean(SharedCounter.class));

            assertThat(SharedCounter.OVERLAPS.get()).isPositive();
        }
    }

    /** 4 threads per application, 200 calls each. */
    private static void hammer(SharedCounter first, SharedCounter second) throws Exception {
        Callers.start(8, caller -> {
                    SharedCounter counter = caller % 2 == 0 ? first : second;
                    for (int i = 0; i < 200; i++) {
                        counter.increment();
                    }
                })
                .await();
    }
}
