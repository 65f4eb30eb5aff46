package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.plan.LockPlan;
import jakarta.interceptor.InvocationContext;

/**
 * A method whose work is done when it returns: the call takes its locks under an owner id of its own (a nested call
 * of the same thread shares them through the call bound to the thread), and they are released before the result
 * reaches the caller.
 */
final class BlockingOperation extends LockOperation {

    BlockingOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services, true);
    }

    @Override
    public Object invoke(InvocationContext ctx) throws Exception {
        refuseIfCallerMustNotBlock();
        LockedCall call = calls.newCall(ctx.getParameters(), nextCallOwner());
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
