package dev.padlock.core;

import dev.padlock.LockLostException;
import dev.padlock.core.plan.LockPlan;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;

/**
 * A method whose work is done when it returns: the calling thread owns the locks (so a nested call of the
 * same thread re-enters), and they are released before the result reaches the caller.
 */
final class BlockingOperation extends LockOperation {

    BlockingOperation(LockPlan plan, Method method, Shared shared) {
        super(plan, method, shared);
    }

    @Override
    @SuppressWarnings("deprecation") // Thread.getId(): Redisson identifies owners by it; threadId() is Java 19+.
    public Object invoke(InvocationContext ctx) throws Exception {
        refuseIfCallerMustNotBlock();
        HeldLocks call = locksFor(ctx.getParameters(), Thread.currentThread().getId());
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
        releaseAll(call);
        LockLostException lost = lostException(call);
        if (lost != null) {
            throw lost;
        }
        return result;
    }
}
