package dev.padlock.core;

import dev.padlock.LockLostException;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A method returning {@code CompletionStage}/{@code CompletableFuture}: the locks are held until the stage the
 * method returned completes, fails or is cancelled, not until the method returns. The stage may complete on any
 * thread, so each call owns its locks under an id of its own rather than the calling thread's.
 *
 * <p>The caller gets a stage of Padlock's that completes like the method's, once the locks are released (so,
 * as for a blocking method, the result reaches the caller after the release, and a lost lock can fail it).
 * Cancelling it cancels the method's stage. Its dependent actions run on a Padlock thread, never on Redisson's
 * I/O threads, where a blocking action could stall every Redis call of the application.
 *
 * <p>Called on a thread that must not block (a Vert.x event loop), the locks are taken asynchronously and the
 * method runs afterwards on the caller's context; elsewhere the calling thread waits for them, then runs it.
 */
final class StageOperation extends LockOperation {

    StageOperation(LockPlan plan, Method method, Shared shared) {
        super(plan, method, shared);
    }

    /** Threads that complete callers' stages; they grow with demand and end when idle. */
    private static final class Completions {
        static final Executor EXECUTOR = completions();
    }

    private static Executor completions() {
        ClassLoader padlock = StageOperation.class.getClassLoader();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "padlock-completion");
            t.setDaemon(true);
            t.setContextClassLoader(padlock);
            return t;
        });
    }

    @Override
    public Object invoke(InvocationContext ctx) throws Exception {
        HeldLocks call = locksFor(ctx.getParameters(), nextCallOwner());
        if (callers.mustNotBlock()) {
            return acquireThenProceed(ctx, call, callers.capture());
        }
        if (!acquireAll(call)) {
            return plan.returnKind().emptyResult();
        }
        CompletableFuture<Object> toCaller = new CompletableFuture<>();
        return proceedHolding(ctx, call, toCaller) ? toCaller : null;
    }

    private CompletableFuture<Object> acquireThenProceed(InvocationContext ctx, HeldLocks call, Executor resume) {
        CompletableFuture<Object> toCaller = new CompletableFuture<>();
        CompletableFuture<Boolean> acquisition = acquireAllAsync(call);
        toCaller.whenComplete((value, failure) -> {
            if (toCaller.isCancelled()) {
                acquisition.cancel(false); // releases what it takes from now on
            }
        });
        acquisition.whenCompleteAsync(
                (taken, failure) -> {
                    if (failure != null) {
                        toCaller.completeExceptionally(failure);
                    } else if (!taken) {
                        toCaller.complete(null);
                    } else if (!toCaller.isDone()) {
                        try {
                            if (!proceedHolding(ctx, call, toCaller)) {
                                toCaller.complete(null);
                            }
                        } catch (Exception e) {
                            toCaller.completeExceptionally(e);
                        }
                    }
                },
                resume != null ? resume : Completions.EXECUTOR);
        return toCaller;
    }

    /**
     * Runs the method with the locks held, and completes {@code toCaller} after releasing them.
     *
     * @return false when the method returned {@code null} (the locks are then released and {@code toCaller} unused)
     */
    private boolean proceedHolding(InvocationContext ctx, HeldLocks call, CompletableFuture<Object> toCaller)
            throws Exception {
        HeldLocks outer = call.bind();
        Object result;
        try {
            result = ctx.proceed();
        } catch (Throwable failure) {
            HeldLocks.unbind(outer);
            releaseAll(call);
            LockLostException lost = lostException(call);
            if (lost != null) {
                failure.addSuppressed(lost);
            }
            throw failure;
        }
        HeldLocks.unbind(outer);
        if (result == null) {
            releaseAll(call);
            LockLostException lost = lostException(call);
            if (lost != null) {
                throw lost;
            }
            return false;
        }
        CompletionStage<?> stage = (CompletionStage<?>) result;
        toCaller.whenComplete((value, failure) -> {
            if (toCaller.isCancelled()) {
                cancel(stage);
            }
        });
        stage.whenComplete((value, failure) -> releaseAllLater(call)
                .whenCompleteAsync(
                        (released, ignored) -> {
                            LockLostException lost = lostException(call);
                            if (failure != null) {
                                if (lost != null) {
                                    failure.addSuppressed(lost);
                                }
                                toCaller.completeExceptionally(failure);
                            } else if (lost != null) {
                                toCaller.completeExceptionally(lost);
                            } else {
                                toCaller.complete(value);
                            }
                        },
                        Completions.EXECUTOR));
        return true;
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // A stage that cannot be cancelled: the lock is held until it completes, as its work goes on.
        }
    }
}
