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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;

/**
 * A method returning {@code CompletionStage}/{@code CompletableFuture}: the locks are held until the stage the
 * method returned completes, fails or is cancelled, not until the method returns. The stage may complete on any
 * thread, so each call owns its locks under an id of its own rather than the calling thread's.
 *
 * <p>The caller gets a stage of Padlock's that completes like the method's, once the locks are released (so,
 * as for a blocking method, the result reaches the caller after the release, and a lost lock can fail it).
 * Cancelling it cancels the method's stage. Its dependent actions run on a Padlock thread, never on Redisson's
 * I/O threads, where a blocking action could stall every Redis call of the application.
 */
final class StageOperation extends LockOperation {

    /**
     * Owner ids of stage calls count down from -1, so they never collide with thread ids (positive) under
     * the same Redisson client id.
     */
    private static final AtomicLong NEXT_OWNER = new AtomicLong();

    StageOperation(
            LockPlan plan,
            Method method,
            Supplier<RedissonClient> client,
            LeaseRenewal renewal,
            LockLossReporter losses) {
        super(plan, method, client, renewal, losses);
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
        HeldLocks call = locksFor(ctx.getParameters(), NEXT_OWNER.decrementAndGet());
        if (!acquireAll(call)) {
            return plan.returnKind().emptyResult();
        }
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
            return null;
        }
        CompletionStage<?> stage = (CompletionStage<?>) result;
        CompletableFuture<Object> toCaller = new CompletableFuture<>();
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
        return toCaller;
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // A stage that cannot be cancelled: the lock is held until it completes, as its work goes on.
        }
    }
}
