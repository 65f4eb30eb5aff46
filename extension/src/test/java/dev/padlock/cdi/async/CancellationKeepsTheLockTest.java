package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cancelling a caller's stage, or a Mutiny subscriber giving up (a timeout, a cancelled subscription), is forwarded
 * to the method's result, but the method's work may go on: its lock is not released then. Where the work's end
 * cannot be observed any more, the lock lapses with its lease. Other callers keep trying to enter all the while
 * the first call's work runs; with the lock released on cancel, one of them gets in (2 inside at once).
 */
@ExtendWith(RedisExtension.class)
class CancellationKeepsTheLockTest {

    private static final long WORK_MILLIS = 1500;

    @ApplicationScoped
    public static class Jobs {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger maxInside = new AtomicInteger();
        final AtomicInteger entered = new AtomicInteger();
        final CountDownLatch firstWorkDone = new CountDownLatch(1);
        final AtomicInteger lost = new AtomicInteger();

        void lost(@Observes LockLost loss) {
            lost.incrementAndGet();
        }

        public int lost() {
            return lost.get();
        }
        // A pool of its own: on a small machine the common pool may have one thread and queue the second work
        // behind the first, so that two would never overlap even unlocked.
        private final ExecutorService pool = Executors.newCachedThreadPool();

        void work() {
            entered.incrementAndGet();
            int now = inside.incrementAndGet();
            maxInside.accumulateAndGet(now, Math::max);
            try {
                Thread.sleep(WORK_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inside.decrementAndGet();
                firstWorkDone.countDown();
            }
        }

        @Locked("warm-up")
        public void connected() {}

        public int maxInside() {
            return maxInside.get();
        }

        public int entered() {
            return entered.get();
        }

        public boolean firstWorkRuns() {
            return firstWorkDone.getCount() > 0;
        }

        @Locked(value = "a2-stage", waitTime = "0", leaseTime = "3s")
        public CompletionStage<Void> stage() {
            return CompletableFuture.runAsync(this::work, pool);
        }

        @Locked(value = "a2-uni", waitTime = "0", leaseTime = "3s")
        public Uni<String> uni() {
            return Uni.createFrom()
                    .item(() -> {
                        work();
                        return "done";
                    })
                    .runSubscriptionOn(pool);
        }

        @Locked(value = "a2-multi", waitTime = "0", leaseTime = "3s")
        public Multi<Integer> multi() {
            return Multi.createFrom()
                    .emitter(emitter -> pool.execute(() -> {
                        work();
                        emitter.emit(1);
                        emitter.complete();
                    }));
        }

        @PreDestroy
        void stop() {
            pool.shutdownNow();
        }
    }

    private static Deployment start(RedisServer redis) {
        Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Jobs.class);
        app.bean(Jobs.class).connected(); // the scenario starts once Padlock is connected
        return app;
    }

    /**
     * While the first call's work runs, other callers try again and again (waitTime 0); then the key must still be
     * held (nothing released it early, nor when the unobservable work ended) and lapse with its lease.
     */
    private static void othersStayOutUntilTheLockLapses(
            RedisServer redis, Jobs jobs, String name, Supplier<Boolean> tryOnce) throws Exception {
        int refused = 0;
        while (jobs.firstWorkRuns()) {
            if (!tryOnce.get()) {
                refused++;
            }
            Thread.sleep(50);
        }
        assertThat(jobs.maxInside())
                .as("callers inside at once while the cancelled call's work ran")
                .isEqualTo(1);
        assertThat(refused).as("others tried while it ran").isPositive();
        assertThat(redis.command("EXISTS", "padlock:" + name))
                .as("the work's end was not observable: nothing released the lock")
                .isEqualTo(1L);
        assertThat(eventually(() -> Long.valueOf(0).equals(redis.command("EXISTS", "padlock:" + name))))
                .as("the lock lapses with its lease")
                .isTrue();
        assertThat(eventually(tryOnce::get))
                .as("then the application's next caller gets in: the lapsed call's local turn was passed on")
                .isTrue();
        assertThat(jobs.lost()).as("a lock left to lapse is no loss to report").isZero();
    }

    private static boolean eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Test
    void aCancelledStageKeepsTheLockWhileItsWorkRuns(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Jobs jobs = app.bean(Jobs.class);
            CompletableFuture<Void> first = jobs.stage().toCompletableFuture();
            Waits.until(() -> jobs.entered() == 1, "the first call's work running");
            assertThat(first.cancel(true)).isTrue();
            assertThat(first).as("the caller gets its cancellation at once").isCancelled();
            othersStayOutUntilTheLockLapses(redis, jobs, "a2-stage", () -> {
                try {
                    jobs.stage();
                    return true;
                } catch (LockNotAcquiredException e) {
                    return false;
                }
            });
        }
    }

    @Test
    void aUniSubscriberTimeoutKeepsTheLockWhileItsWorkRuns(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Jobs jobs = app.bean(Jobs.class);
            CompletableFuture<String> first =
                    jobs.uni().ifNoItem().after(Duration.ofMillis(300)).fail().subscribeAsCompletionStage();
            assertThat(catchFailure(first)).isInstanceOf(io.smallrye.mutiny.TimeoutException.class);
            othersStayOutUntilTheLockLapses(redis, jobs, "a2-uni", () -> {
                CompletableFuture<String> other = jobs.uni().subscribeAsCompletionStage();
                return !(catchFailureWithin(other, 100) instanceof LockNotAcquiredException);
            });
        }
    }

    @Test
    void aCancelledMultiKeepsTheLockWhileItsWorkRuns(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Jobs jobs = app.bean(Jobs.class);
            Cancellable first = jobs.multi().subscribe().with(item -> {}, failure -> {});
            for (int i = 0; i < 200 && jobs.entered() == 0; i++) {
                Thread.sleep(50);
            }
            assertThat(jobs.entered()).as("the first call's work runs").isEqualTo(1);
            Thread.sleep(200);
            first.cancel();
            othersStayOutUntilTheLockLapses(redis, jobs, "a2-multi", () -> {
                CompletableFuture<Void> other = new CompletableFuture<>();
                jobs.multi().subscribe().with(item -> {}, other::completeExceptionally, () -> other.complete(null));
                return !(catchFailureWithin(other, 100) instanceof LockNotAcquiredException);
            });
        }
    }

    private static Throwable catchFailure(CompletableFuture<?> future) throws InterruptedException {
        try {
            future.get(10, TimeUnit.SECONDS);
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no outcome within 10 s", e);
        }
    }

    /** The failure within {@code millis}, or null when it succeeded or is still running (it entered). */
    private static Throwable catchFailureWithin(CompletableFuture<?> future, long millis) {
        try {
            future.get(millis, TimeUnit.MILLISECONDS);
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException | InterruptedException e) {
            return null;
        }
    }
}
