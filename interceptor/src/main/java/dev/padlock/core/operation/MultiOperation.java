package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.plan.LockPlan;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * A method returning Mutiny's {@code Multi} or a {@code Flow.Publisher}: locked from subscription until the stream
 * completes or fails. A {@code Multi} is a {@code Flow.Publisher}, so the one stream Padlock builds is the method's
 * result for both.
 */
sealed class MultiOperation extends MutinyOperation permits PublisherOperation {

    MultiOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services);
    }

    @Override
    public Object invoke(InvocationContext ctx) {
        return locked(ctx, ctx.getParameters());
    }

    /** What a skipped call emits: nothing. */
    @Override
    final Object skipped() {
        return Multi.createFrom().empty();
    }

    /** The method's result as a {@code Multi}. */
    @SuppressWarnings("unchecked")
    Multi<Object> body(Object result) {
        return result instanceof Multi<?> multi
                ? (Multi<Object>) multi
                : Multi.createFrom().publisher((Flow.Publisher<Object>) result);
    }

    final Multi<Object> locked(InvocationContext ctx, Object[] args) {
        return Multi.createFrom().deferred(() -> {
            Executor resume = resumeExecutor();
            CompletableFuture<LockedCall> locks = calls.newCallLater(args, nextCallOwner());
            if (locks.isDone() && !locks.isCompletedExceptionally()) {
                return locked(ctx, locks.join(), resume);
            }
            return Uni.createFrom().completionStage(locks).onItem().transformToMulti(call -> locked(ctx, call, resume));
        });
    }

    private Multi<Object> locked(InvocationContext ctx, LockedCall call, Executor resume) {
        CompletableFuture<Boolean> acquiring = acquireAllLater(call);
        return acquired(acquiring, resume)
                .onItem()
                .transformToMulti(
                        taken -> Boolean.TRUE.equals(taken) && call.start() ? run(ctx, call, resume) : skippedMulti())
                // Cancelled while the method body ran, Mutiny never subscribes the stream it returns, so the body's
                // own hooks never run; the body may have started work, so the locks lapse.
                .onCancellation()
                .invoke(() -> cancelled(call, acquiring, true));
    }

    private Multi<Object> run(InvocationContext ctx, LockedCall call, Executor resume) {
        Object result;
        try {
            result = proceedBound(ctx, call);
        } catch (Throwable e) { // an Error too: nothing else would release
            return afterRelease(call, resume, null, e).toMulti();
        }
        if (result == null) {
            return afterRelease(call, resume, null, null).toMulti();
        }
        Multi<Object> stream = body(result);
        if (stopsOnLoss) {
            // At a loss the stream's subscription is cancelled and the call fails; the loss's side completes empty
            // once the stream ends, so the merge ends with it.
            CompletableFuture<Object> lost = lossOf(call);
            stream = Multi.createBy()
                    .merging()
                    .streams(
                            stream.onTermination().invoke(() -> lost.complete(null)),
                            Uni.createFrom().completionStage(lost).toMulti());
        }
        // A cancelled subscription hears nothing more of the body, whose work may go on: let the locks lapse.
        return stream.onCancellation()
                .invoke(() -> releaser.letLapse(call))
                .onFailure()
                .recoverWithMulti(
                        failure -> afterRelease(call, resume, null, failure).toMulti())
                .onCompletion()
                .call(() -> afterRelease(call, resume, null, null));
    }

    @SuppressWarnings("unchecked")
    private Multi<Object> skippedMulti() {
        return (Multi<Object>) skipped();
    }
}
