package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.plan.LockPlan;
import io.smallrye.mutiny.Uni;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** A method returning Mutiny's {@code Uni}: locked from subscription until the {@code Uni} emits or fails. */
final class UniOperation extends MutinyOperation {

    UniOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services);
    }

    @Override
    public Object invoke(InvocationContext ctx) {
        Object[] args = ctx.getParameters();
        return Uni.createFrom().deferred(() -> locked(ctx, args));
    }

    /** What a skipped call emits: {@code null}. */
    @Override
    Object skipped() {
        return Uni.createFrom().nullItem();
    }

    private Uni<Object> locked(InvocationContext ctx, Object[] args) {
        Executor resume = resumeExecutor();
        CompletableFuture<LockedCall> locks = calls.newCallLater(args, nextCallOwner());
        if (locks.isDone() && !locks.isCompletedExceptionally()) {
            return locked(ctx, locks.join(), resume);
        }
        // Padlock is still connecting: go on once it is.
        return Uni.createFrom().completionStage(locks).onItem().transformToUni(call -> locked(ctx, call, resume));
    }

    private Uni<Object> locked(InvocationContext ctx, LockedCall call, Executor resume) {
        CompletableFuture<Boolean> acquiring = acquireAllLater(call);
        return acquired(acquiring, resume)
                .onItem()
                .transformToUni(
                        taken -> Boolean.TRUE.equals(taken) && call.start() ? run(ctx, call, resume) : skippedUni())
                // Once the method started, the body's own hooks see the end: a subscriber cancelling while the
                // method runs still gets the Uni it returns subscribed by Mutiny (the item is dropped).
                .onCancellation()
                .invoke(() -> cancelled(call, acquiring, false));
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> run(InvocationContext ctx, LockedCall call, Executor resume) {
        Uni<Object> body;
        try {
            body = (Uni<Object>) proceedBound(ctx, call);
        } catch (Throwable e) { // an Error too: nothing else would release
            return afterRelease(call, resume, null, e);
        }
        if (body == null) {
            return afterRelease(call, resume, null, null);
        }
        if (stopsOnLoss) {
            // At a loss the body's subscription is cancelled (its work stops where it listens) and the call fails.
            body = Uni.combine().any().of(body, Uni.createFrom().completionStage(lossOf(call)));
        }
        // A cancelled subscription hears nothing more of the body, whose work may go on: let the locks lapse.
        return body.onCancellation()
                .invoke(() -> releaser.letLapse(call))
                .onItemOrFailure()
                .transformToUni((item, failure) -> afterRelease(call, resume, item, failure));
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> skippedUni() {
        return (Uni<Object>) skipped();
    }
}
