package dev.padlock.core;

import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * A method whose work is done when it returns: the calling thread owns the locks (so a nested call of the
 * same thread re-enters), and they are released before the result reaches the caller.
 */
final class BlockingOperation extends LockOperation {

    BlockingOperation(LockPlan plan, Method method, Supplier<RedissonClient> client, LeaseRenewal renewal) {
        super(plan, method, client, renewal);
    }

    @Override
    @SuppressWarnings("deprecation") // Thread.getId(): Redisson identifies owners by it; threadId() is Java 19+.
    public Object invoke(InvocationContext ctx) throws Exception {
        RLock[] locks = locksFor(ctx.getParameters());
        long owner = Thread.currentThread().getId();
        LeaseRenewal.Held renewing = renewWhileHeld(locks, owner);
        if (!acquireAll(locks, owner, renewing)) {
            return plan.returnKind().emptyResult();
        }
        try {
            return ctx.proceed();
        } finally {
            stopRenewing(renewing);
            releaseAll(locks, locks.length, owner);
        }
    }
}
