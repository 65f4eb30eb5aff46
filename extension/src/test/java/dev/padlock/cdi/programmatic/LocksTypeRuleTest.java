package dev.padlock.cdi.programmatic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockException;
import dev.padlock.LockType;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * E5 (engine review 2): the one-type-per-name rule of {@code Locks} holds however many different settings the
 * application used. A caller that passes what is left of its deadline ({@code waitTime(remaining)}) makes new settings
 * on every call; once more of them were used than {@code Locks} keeps operations for, two uses of a name first seen
 * after that, REENTRANT and READ, must still be compared: the READ call is refused, not run beside the REENTRANT
 * holder (Redisson's read lock does not see it).
 */
@ExtendWith(RedisExtension.class)
class LocksTypeRuleTest {

    private static final String NAME = "e5-deadline";

    /** Another part of the application, which passes its remaining deadline as the wait. */
    private static final String FILLER = "e5-filler";

    /** More distinct settings than {@code ProgrammaticLocks.KEPT_OPERATIONS} (1024). */
    private static final int CALLS = 1_030;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @ApplicationScoped
    public static class Work {
        final AtomicInteger ran = new AtomicInteger();

        @Inject
        Locks locks;

        public Locks locks() {
            return locks;
        }

        public void count() {
            ran.incrementAndGet();
        }

        public int ran() {
            return ran.get();
        }
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void aConflictingTypeIsRefusedAlsoOnceMoreThan1024SettingsWereUsed(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class)) {
            Work work = app.bean(Work.class);
            for (int i = 0; i < CALLS; i++) {
                work.locks()
                        .on(FILLER, "k")
                        .waitTime(Duration.ofMillis(2000 + i))
                        .run(work::count);
            }
            assertThat(work.ran()).isEqualTo(CALLS);

            assertThat(readBesideAReentrantHolder(work))
                    .as("the READ call was")
                    .startsWith("refused: ")
                    .contains("the lock \"" + NAME + "\" is taken with different types")
                    .contains("REENTRANT by Locks.on(\"" + NAME + "\", key)")
                    .contains("READ by Locks.on(\"" + NAME + "\", key).type(READ)");
            assertThat(work.ran()).as("the holder ran, the reader did not").isEqualTo(CALLS + 1);
        }
    }

    @Test
    void controlAConflictingTypeIsRefusedWhileSettingsAreKept(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class)) {
            Work work = app.bean(Work.class);
            for (int i = 0; i < 3; i++) {
                work.locks()
                        .on(FILLER, "k")
                        .waitTime(Duration.ofMillis(2000 + i))
                        .run(work::count);
            }

            assertThat(readBesideAReentrantHolder(work))
                    .as("the READ call was")
                    .startsWith("refused: ")
                    .contains("REENTRANT by Locks.on(\"" + NAME + "\", key)")
                    .contains("READ by Locks.on(\"" + NAME + "\", key).type(READ)");
            assertThat(work.ran()).isEqualTo(3 + 1);
        }
    }

    @Test
    void aNameThatCanReachTheKeysOfAKeyedNameIsComparedWithItOnceSettingsAreNoLongerKept(RedisServer redis) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class)) {
            Work work = app.bean(Work.class);
            for (int i = 0; i < CALLS; i++) {
                work.locks()
                        .on(FILLER, "k")
                        .waitTime(Duration.ofMillis(2000 + i))
                        .run(work::count);
            }
            work.locks().on("e5-stock").run(work::count);
            work.locks().on("e5-stock", "eu").run(work::count);

            assertThat(catchThrowable(() ->
                            work.locks().on("e5-stock:eu").type(LockType.READ).run(work::count)))
                    .as("\"e5-stock\" keyed by \"eu\" is the key of \"e5-stock:eu\"")
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("its keys padlock:e5-stock:<key> can be padlock:e5-stock:eu")
                    .hasMessageContaining("READ by Locks.on(\"e5-stock:eu\").type(READ)");
            assertThat(work.locks().on("e5-stock:eu").run(work::count))
                    .as("control: the same type runs")
                    .isTrue();
            assertThat(work.ran()).isEqualTo(CALLS + 3);
        }
    }

    /**
     * Holds the key REENTRANT on another thread, and meanwhile makes a READ call of the same name and key that tries
     * once: what became of it.
     */
    private String readBesideAReentrantHolder(Work work) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Future<?> holder = threads.submit(() -> work.locks().on(NAME, "k").run(() -> {
            work.count();
            entered.countDown();
            try {
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS))
                    .as("the holder entered")
                    .isTrue();
            Throwable refused = catchThrowable(() -> work.locks()
                    .on(NAME, "k")
                    .type(LockType.READ)
                    .waitTime(Duration.ZERO)
                    .run(work::count));
            if (refused == null) {
                return "ran beside the holder";
            }
            return refused instanceof LockException
                    ? "refused: " + refused.getMessage()
                    : "failed otherwise: " + refused;
        } finally {
            done.countDown();
            holder.get(30, TimeUnit.SECONDS);
        }
    }
}
