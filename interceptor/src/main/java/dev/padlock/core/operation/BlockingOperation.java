package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.plan.LockPlan;
import jakarta.interceptor.InvocationContext;

/**
 * A method whose work is done when it returns: the call takes its locks under an owner id of its own (a nested call
 * of the same thread shares them through the call bound to the thread, a later call of the caller's transaction
 * through that transaction), and they are released before the result reaches the caller, or, when the call ended
 * inside its caller's transaction, once that transaction completes.
 */
final class BlockingOperation extends LockOperation {

    BlockingOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services, true);
    }

    @Override
    public Object invoke(InvocationContext ctx) throws Exception {
        refuseIfCallerMustNotBlock();
        Object scope = timing.scope();
        LockedCall call = calls.newCall(ctx.getParameters(), nextCallOwner(), timing.keptFor(scope));
        call.endsInside(scope);
        if (!acquireAll(call)) {
            return skipped();
        }
        Object result;
        Throwable failure = null;
        try {
            result = proceedBound(ctx, call);
        } catch (Throwable t) {
            result = null;
            failure = t;
        }
        if (stopsOnLoss && call.firstLoss() != null) {
            timing.workStopped(call);
        }
        return endThenOutcome(call, result, failure);
    }
}
