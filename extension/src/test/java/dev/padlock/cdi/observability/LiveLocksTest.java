package dev.padlock.cdi.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The engine's live picture (what the Quarkus Dev UI's live page shows): the locks held now with their method and
 * lease, the callers queued locally per key, and the latest losses; and nothing once the calls are over.
 */
@ExtendWith(RedisExtension.class)
class LiveLocksTest {

    /**
     * A thread per call: the calls block, and CompletableFuture's default pool may run them one at a time (on a
     * 2-core machine JDK 25 gives it one thread, where JDK 17 started a thread per task).
     */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "live", key = "{id}", waitTime = "30s")
        public String holdUntil(String id, CountDownLatch done) throws InterruptedException {
            done.await(30, TimeUnit.SECONDS);
            return id;
        }

        @Locked(value = "short", leaseTime = "300ms")
        public String overrun(CountDownLatch done) throws InterruptedException {
            done.await(30, TimeUnit.SECONDS);
            return "done";
        }
    }

    @Test
    void showsHeldLocksAndQueuedCallersWhileTheyLast(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class)) {
            Work work = app.bean(Work.class);
            PadlockEngine engine = app.bean(PadlockEngine.class);
            assertThat(engine.liveLocks().held()).as("nothing runs yet").isEmpty();

            CountDownLatch done = new CountDownLatch(1);
            List<CompletableFuture<String>> calls = new ArrayList<>();
            try {
                calls.add(CompletableFuture.supplyAsync(() -> uncheck(() -> work.holdUntil("a-1", done)), threads));
                LiveLocks holding = await(engine, live -> !live.held().isEmpty());
                calls.add(CompletableFuture.supplyAsync(() -> uncheck(() -> work.holdUntil("a-1", done)), threads));
                calls.add(CompletableFuture.supplyAsync(() -> uncheck(() -> work.holdUntil("a-1", done)), threads));
                LiveLocks queued = await(
                        engine,
                        live -> !live.queues().isEmpty() && live.queues().get(0).waiting() == 2);

                assertThat(holding.held()).singleElement().satisfies(held -> {
                    assertThat(held.key()).isEqualTo("padlock:live:a-1");
                    assertThat(held.lockName()).isEqualTo("live");
                    assertThat(held.method()).isEqualTo(Work.class.getName() + "#holdUntil(String, CountDownLatch)");
                    assertThat(held.type()).isEqualTo(LockType.REENTRANT);
                    assertThat(held.renewed()).as("watchdog mode").isTrue();
                    assertThat(held.leaseLeftMillis()).isPositive();
                    assertThat(held.state()).isEqualTo("running");
                });
                assertThat(queued.queues()).containsExactly(new LiveLocks.Queue("padlock:live:a-1", 2));
                assertThat(queued.held()).as("the queued callers hold nothing").hasSize(1);
            } finally {
                done.countDown();
            }
            for (CompletableFuture<String> call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("a-1");
            }
            LiveLocks after = await(engine, live -> live.held().isEmpty());
            assertThat(after.queues()).isEmpty();
            assertThat(after.recentLosses()).isEmpty();
        }
    }

    @Test
    void showsALossAsItIsReported(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class)) {
            Work work = app.bean(Work.class);
            PadlockEngine engine = app.bean(PadlockEngine.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call =
                    CompletableFuture.supplyAsync(() -> uncheck(() -> work.overrun(done)), threads);
            try {
                LiveLocks lost = await(engine, live -> !live.recentLosses().isEmpty());
                assertThat(lost.recentLosses()).singleElement().satisfies(loss -> {
                    assertThat(loss.key()).isEqualTo("padlock:short");
                    assertThat(loss.method()).endsWith("#overrun(CountDownLatch)");
                    assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.DEADLINE);
                    assertThat(loss.at()).isNotNull();
                });
                assertThat(engine.liveLocks().held())
                        .as("still running past its lease, shown as lost")
                        .singleElement()
                        .satisfies(held -> {
                            assertThat(held.state()).isEqualTo("lost");
                            assertThat(held.renewed()).isFalse();
                        });
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(await(engine, live -> live.held().isEmpty()).recentLosses())
                    .as("the loss stays in the recent list after the call")
                    .hasSize(1);
        }
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** Polls the picture until it shows what the test waits for; fails after 20 s (a bound, not a speed claim). */
    private static LiveLocks await(PadlockEngine engine, Predicate<LiveLocks> shown) throws InterruptedException {
        LiveLocks live = engine.liveLocks();
        for (int i = 0; i < 800 && !shown.test(live); i++) {
            Thread.sleep(25);
            live = engine.liveLocks();
        }
        assertThat(shown).as("live picture never showed it; last: %s", live).accepts(live);
        return live;
    }

    interface Body<T> {
        T run() throws Exception;
    }

    private static <T> T uncheck(Body<T> body) {
        try {
            return body.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
