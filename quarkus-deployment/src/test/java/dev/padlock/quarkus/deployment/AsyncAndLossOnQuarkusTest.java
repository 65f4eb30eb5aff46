package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockException;
import dev.padlock.LockLost;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On Quarkus: a locked call made on a Vert.x event loop never blocks it (a Uni or CompletionStage takes its lock
 * asynchronously and continues on the caller's event loop; a blocking method is refused at once), LockLost
 * reaches the application's observers, and LockContext is injectable.
 */
class AsyncAndLossOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Work.class, Losses.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri());

    static final Vertx VERTX = Vertx.vertx();

    @AfterAll
    static void closeVertx() throws Exception {
        VERTX.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @ApplicationScoped
    public static class Work {
        @Inject
        LockContext lock;

        @Locked(value = "q-uni", waitTime = "0")
        public Uni<String> uni(CompletableFuture<String> work) {
            String where = Thread.currentThread().getName();
            return Uni.createFrom().completionStage(work).map(v -> v + "@" + where);
        }

        @Locked(value = "q-stage-wait", waitTime = "30s")
        public CompletionStage<String> stageWaiting() {
            return CompletableFuture.completedFuture(
                    "done@" + Thread.currentThread().getName());
        }

        @Locked(value = "q-stage-wait")
        public void hold(java.util.concurrent.CountDownLatch taken, java.util.concurrent.CountDownLatch release)
                throws InterruptedException {
            taken.countDown();
            release.await(30, TimeUnit.SECONDS);
        }

        @Locked(value = "q-blocking")
        public String blocking() {
            return "ran";
        }

        @Locked(value = "q-short", leaseTime = "200ms", type = LockType.FENCED)
        public long overrun() throws InterruptedException {
            long token = lock.token();
            Thread.sleep(600);
            return token;
        }
    }

    @ApplicationScoped
    public static class Losses {
        final List<LockLost> seen = new CopyOnWriteArrayList<>();

        void record(@Observes LockLost loss) {
            seen.add(loss);
        }

        public List<LockLost> seen() {
            return seen;
        }
    }

    @Inject
    Work work;

    @Inject
    Losses losses;

    /**
     * Padlock connects in the background at start-up; until it is connected, a call on an event loop with waitTime
     * 0 is refused at once. A blocking call off the loop waits for the connection.
     */
    @BeforeEach
    void connected() {
        assertThat(work.blocking()).isEqualTo("ran");
    }

    /** Runs {@code action} on an event loop and hands its outcome back. */
    private static <T> T onEventLoop(java.util.function.Supplier<T> action) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        VERTX.runOnContext(ignored -> {
            try {
                result.complete(action.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aUniSubscribedOnAnEventLoopLocksWithoutBlockingAndContinuesThere() throws Exception {
        CompletableFuture<String> body = new CompletableFuture<>();
        CompletableFuture<String> result = new CompletableFuture<>();
        String loop = onEventLoop(() -> {
            work.uni(body).subscribe().with(result::complete, result::completeExceptionally);
            return Thread.currentThread().getName();
        });
        assertThat(loop).contains("eventloop");
        Throwable second = catchThrowable(
                () -> work.uni(new CompletableFuture<>()).await().atMost(java.time.Duration.ofSeconds(10)));
        for (int i = 0; i < 200 && !(second instanceof LockNotAcquiredException); i++) {
            Thread.sleep(25); // the first subscription may still be acquiring
            second = catchThrowable(
                    () -> work.uni(new CompletableFuture<>()).await().atMost(java.time.Duration.ofSeconds(10)));
        }
        assertThat(second).as("held while the Uni runs").isInstanceOf(LockNotAcquiredException.class);
        body.complete("done");
        assertThat(result.get(10, TimeUnit.SECONDS))
                .as("the method ran on the subscriber's event loop, not on Redisson's threads")
                .isEqualTo("done@" + loop);
    }

    @Test
    void aStageOnAnEventLoopWaitsForItsLockWithoutBlockingAndRunsThere() throws Exception {
        java.util.concurrent.CountDownLatch taken = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try {
                work.hold(taken, release);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(taken.await(10, TimeUnit.SECONDS)).isTrue();
            // Waiting for the lock on the loop itself would block it until the holder lets go: onEventLoop would
            // time out instead of handing back a pending stage.
            CompletionStage<String> stage = onEventLoop(work::stageWaiting);
            assertThat(stage.toCompletableFuture()).as("the lock is still held").isNotDone();
            release.countDown();
            assertThat(stage.toCompletableFuture().get(10, TimeUnit.SECONDS)).matches("done@vert\\.x-eventloop.*");
        } finally {
            release.countDown();
            holder.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBlockingMethodOnAnEventLoopIsRefusedAtOnce() throws Exception {
        Throwable refused = catchThrowable(() -> onEventLoop(work::blocking));
        assertThat(refused)
                .hasCauseInstanceOf(LockException.class)
                .rootCause()
                .hasMessageContaining("event-loop thread")
                .hasMessageContaining("#blocking()");
        assertThat(work.blocking()).as("the same call off the event loop").isEqualTo("ran");
    }

    @Test
    void aLostLockReachesObserversAndTheTokenIsInjectable() throws Exception {
        long token = work.overrun();
        assertThat(token).isPositive();
        assertThat(losses.seen()).singleElement().satisfies(loss -> {
            assertThat(loss.lockKey()).isEqualTo("padlock:q-short");
            // reported when the 200 ms lease ended, while the method still ran
            assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.DEADLINE);
        });
        assertThat(work.overrun()).as("tokens increase").isGreaterThan(token);
    }
}
