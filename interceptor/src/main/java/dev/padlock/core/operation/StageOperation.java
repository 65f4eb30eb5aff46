package dev.padlock.core.operation;

import dev.padlock.core.PadlockThreads;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.call.WorkStopper;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.Acquisition;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

/**
 * A method returning {@code CompletionStage}/{@code CompletableFuture}: the locks are held until the stage the
 * method returned completes, fails or is cancelled, not until the method returns. The stage may complete on any
 * thread, so each call owns its locks under an id of its own rather than the calling thread's.
 *
 * <p>The caller gets a stage of Padlock's that completes like the method's, once the locks are released (so,
 * as for a blocking method, the result reaches the caller after the release, and a lost lock can fail it).
 * Cancelling it cancels the method's stage; but a cancelled future reports done while the task that would have
 * completed it may still run, so the locks are then not released: they lapse with their lease (see
 * {@link Releaser#letLapse}). Its dependent actions run on a Padlock thread, never on Redisson's I/O threads,
 * where a blocking action could stall every Redis call of the application.
 *
 * <p>Called on a thread that must not block (a Vert.x event loop), the locks are taken asynchronously, the method
 * runs afterwards on the caller's context, and they are released without waiting; elsewhere the calling thread
 * waits for them, then runs it.
 */
final class StageOperation extends LockOperation {

    StageOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services, false);
    }

    /**
     * Threads that complete callers' stages, so the callers' dependent actions run there. A few, as many as there
     * are processors (at least 2), with a queue: a burst of completions whose dependents block (a JDBC call, a
     * sleep) waits its turn rather than getting a thread each. A fork-join pool, because the blocking that could
     * deadlock a fixed pool is a dependent waiting for another stage (join/get), which may itself need one of
     * these threads to complete: a fork-join worker that waits on a CompletableFuture tells its pool, which then
     * adds a thread for the time it waits (up to 256 in all, beyond which it waits without one rather than fail).
     * Idle threads end after 30 s.
     */
    private static final class Completions {
        static final Executor EXECUTOR = completions();
    }

    private static Executor completions() {
        int parallelism = Math.max(2, Runtime.getRuntime().availableProcessors());
        ForkJoinPool.ForkJoinWorkerThreadFactory threads = pool -> {
            ForkJoinWorkerThread t = new ForkJoinWorkerThread(pool) {};
            return PadlockThreads.prepare(t, "padlock-completion-" + t.getPoolIndex());
        };
        return new ForkJoinPool(parallelism, threads, null, true, 0, 256, 1, pool -> true, 30, TimeUnit.SECONDS);
    }

    @Override
    public Object invoke(InvocationContext ctx) throws Exception {
        if (callers.mustNotBlock()) {
            return acquireThenProceed(ctx, callers.capture());
        }
        LockedCall call = calls.newCall(ctx.getParameters(), nextCallOwner());
        if (!acquireAll(call)) {
            return skipped();
        }
        return proceedHolding(ctx, call, new CompletableFuture<>(), true);
    }

    /** For a caller that must not block: nothing here waits, and {@code toCaller} completes on every path. */
    private CompletableFuture<Object> acquireThenProceed(InvocationContext ctx, Executor resume) {
        CompletableFuture<Object> toCaller = new CompletableFuture<>();
        CompletableFuture<LockedCall> locks = calls.newCallLater(ctx.getParameters(), nextCallOwner());
        if (locks.isDone() && !locks.isCompletedExceptionally()) {
            acquireThenProceed(ctx, locks.join(), resume, toCaller);
        } else {
            // Padlock is still connecting: go on once it is, on one of Padlock's threads.
            locks.whenCompleteAsync(
                    (call, failure) -> {
                        if (failure != null) {
                            toCaller.completeExceptionally(Acquisition.unwrap(failure));
                        } else if (!toCaller.isDone()) {
                            acquireThenProceed(ctx, call, resume, toCaller);
                        }
                    },
                    Completions.EXECUTOR);
        }
        return toCaller;
    }

    private void acquireThenProceed(
            InvocationContext ctx, LockedCall call, Executor resume, CompletableFuture<Object> toCaller) {
        CompletableFuture<Boolean> acquisition = acquireAllLater(call);
        // However the caller's stage ends (cancelled, orTimeout, completed by the caller), stop acquiring: what the
        // acquisition takes from now on it releases.
        toCaller.whenComplete((value, failure) -> acquisition.cancel(false));
        acquisition.whenCompleteAsync(
                (taken, failure) -> {
                    if (failure != null) {
                        toCaller.completeExceptionally(Acquisition.unwrap(failure));
                    } else if (!taken) {
                        toCaller.complete(null);
                    } else if (toCaller.isDone()) {
                        releaser.releaseAllLater(call); // taken just as the caller gave up: the method does not run
                    } else {
                        try {
                            proceedHolding(ctx, call, toCaller, false);
                        } catch (Throwable t) {
                            // Padlock's own failure, before the method's stage was in hand (an Error included)
                            releaser.releaseAllLater(call);
                            toCaller.completeExceptionally(t);
                        }
                    }
                },
                resume != null ? resume : Completions.EXECUTOR);
    }

    /**
     * Runs the method with the locks held, and completes {@code toCaller} after releasing them. A caller that may
     * block gets the method's exception (or a {@code null} result) at once, after a release it waits for; one
     * that must not block gets it through {@code toCaller}, after a release it does not wait for.
     *
     * @return what a caller that may block gets: {@code toCaller}, or {@code null} when the method returned no stage
     */
    private Object proceedHolding(
            InvocationContext ctx, LockedCall call, CompletableFuture<Object> toCaller, boolean mayBlock)
            throws Exception {
        Object result;
        Throwable failure = null;
        try {
            result = proceedBound(ctx, call);
        } catch (Throwable t) {
            result = null;
            failure = t;
        }
        if (result == null) {
            // it failed, or returned no stage to wait for: the call ends now
            if (mayBlock) {
                return releaseThenOutcome(call, null, failure);
            }
            completeAfterRelease(call, toCaller, null, failure);
            return toCaller;
        }
        CompletionStage<?> stage = (CompletionStage<?>) result;
        if (stopsOnLoss) {
            call.stopper().stopsResultWith(() -> stop(stage));
        }
        toCaller.whenComplete((value, thrown) -> {
            if (toCaller.isCancelled()) {
                cancel(stage);
            }
        });
        stage.whenComplete((value, thrown) -> {
            if (toCaller.isCancelled() && Acquisition.unwrap(thrown) instanceof CancellationException) {
                // Ended by the cancellation forwarded from the caller, not by its work, which may still run.
                releaser.letLapse(call);
            } else {
                completeAfterRelease(call, toCaller, value, thrown);
            }
        });
        return toCaller;
    }

    /** Releases without waiting, then completes {@code toCaller} on a Padlock thread with the call's outcome. */
    private void completeAfterRelease(
            LockedCall call, CompletableFuture<Object> toCaller, Object value, Throwable failure) {
        releaser.releaseAllLater(call)
                .whenCompleteAsync((released, ignored) -> settle(toCaller, call, value, failure), Completions.EXECUTOR);
    }

    /** A lock was lost ({@code on-lease-lost=interrupt}): the method's stage is cancelled, as far as it can be. */
    private static void stop(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().completeExceptionally(new WorkStopper.Stopped());
        } catch (UnsupportedOperationException e) {
            // A stage that cannot be cancelled: the call ends when it completes, and then throws for the loss.
        }
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // A stage that cannot be cancelled: the lock is held until it completes, as its work goes on.
        }
    }
}
