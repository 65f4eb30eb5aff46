package dev.padlock.core;

import dev.padlock.core.plan.LockPlan;
import jakarta.interceptor.InvocationContext;

/**
 * A method whose work is done when it returns: the calling thread owns the locks (so a nested call of the
 * same thread re-enters), and they are released before the result reaches the caller.
 */
final class BlockingOperation extends LockOperation {

    BlockingOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services, true);
    }

    @Override
    @SuppressWarnings("deprecation") // Thread.getId(): Redisson identifies owners by it; threadId() is Java 19+.
    public Object invoke(InvocationContext ctx) throws Exception {
        refuseIfCallerMustNotBlock();
        LockedCall call =
                calls.newCall(ctx.getParameters(), Thread.currentThread().getId());
        if (!acquireAll(call)) {
            return skipped();
        }
        Object result;
        try {
            result = proceedBound(ctx, call);
        } catch (Throwable failure) {
            return releaseThenOutcome(call, null, failure);
        }
        return releaseThenOutcome(call, result, null);
    }
}
