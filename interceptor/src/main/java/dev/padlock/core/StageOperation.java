package dev.padlock.core;

import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * A method returning {@code CompletionStage}/{@code CompletableFuture}: the locks are held until the stage
 * completes, fails or is cancelled, not until the method returns. The stage may complete on any thread, so
 * each call owns its locks under an id of its own rather than the calling thread's.
 */
final class StageOperation extends LockOperation {

    /**
     * Owner ids of stage calls count down from -1, so they never collide with thread ids (positive) under
     * the same Redisson client id.
     */
    private static final AtomicLong NEXT_OWNER = new AtomicLong();

    StageOperation(LockPlan plan, Method method, Supplier<RedissonClient> client, LeaseRenewal renewal) {
        super(plan, method, client, renewal);
    }

    @Override
    public Object invoke(InvocationContext ctx) throws Exception {
        RLock[] locks = locksFor(ctx.getParameters());
        long owner = NEXT_OWNER.decrementAndGet();
        LeaseRenewal.Held renewing = renewWhileHeld(locks, owner);
        if (!acquireAll(locks, owner, renewing)) {
            return plan.returnKind().emptyResult();
        }
        Object result;
        try {
            result = ctx.proceed();
        } catch (Throwable t) {
            stopRenewing(renewing);
            releaseAll(locks, locks.length, owner);
            throw t;
        }
        if (result == null) {
            stopRenewing(renewing);
            releaseAll(locks, locks.length, owner);
            return null;
        }
        ((CompletionStage<?>) result).whenComplete((value, failure) -> {
            stopRenewing(renewing);
            releaseInBackground(locks, owner);
        });
        return result;
    }

    private void releaseInBackground(RLock[] locks, long owner) {
        for (int i = locks.length - 1; i >= 0; i--) {
            RLock lock = locks[i];
            lock.unlockAsync(owner).whenComplete((ignored, failure) -> {
                if (failure != null) {
                    releaseFailed(lock, Acquisition.unwrap(failure));
                }
            });
        }
    }
}
