package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.ReturnKind;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * A method returning Mutiny {@code Uni}/{@code Multi} or a {@code Publisher}: nothing happens until the result is
 * subscribed. Then the locks are taken without blocking the subscriber, the method runs (so the pipeline it builds
 * is built under the lock), and the locks are held until the result emits its item, completes or fails. A
 * cancellation (the subscriber's timeout, a client gone) is forwarded, but the method's work may go on, and nothing
 * more is heard of it: the locks then lapse with their lease rather than being released (see
 * {@link Releaser#letLapse}). Each subscription is a call of its own, with its own owner id: a result never subscribed takes no
 * lock, and one subscribed twice runs the method twice, each time under the lock.
 *
 * <p>After the locks are taken, the method runs where the subscriber runs: on its Vert.x context when it has one
 * (Quarkus), else on Mutiny's default executor; never on Redisson's I/O threads.
 */
final class ReactiveOperation extends LockOperation {

    ReactiveOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services, false);
    }

    @Override
    public Object invoke(InvocationContext ctx) {
        Object[] args = ctx.getParameters();
        return switch (plan.returnKind()) {
            case UNI -> Uni.createFrom().deferred(() -> lockedUni(ctx, args));
            case MULTI, FLOW_PUBLISHER -> lockedMulti(ctx, args);
            case REACTIVE_STREAMS_PUBLISHER -> ReactiveStreams.publisher(lockedMulti(ctx, args));
            case BLOCKING, OPTIONAL, OPTIONAL_INT, OPTIONAL_LONG, OPTIONAL_DOUBLE, PRIMITIVE, COMPLETION_STAGE ->
                throw new IllegalStateException(plan.method() + " does not return a reactive type");
        };
    }

    /**
     * What a skipped call emits: a {@code Uni} emits {@code null}; a {@code Multi} or publisher nothing (the stream
     * Padlock builds, a {@code Multi} for every publisher, adapted as the method's own result is).
     */
    @Override
    Object skipped() {
        return plan.returnKind() == ReturnKind.UNI
                ? Uni.createFrom().nullItem()
                : Multi.createFrom().empty();
    }

    private Executor resumeExecutor() {
        Executor caller = callers.capture();
        return caller != null ? caller : Infrastructure.getDefaultExecutor();
    }

    private Uni<Object> lockedUni(InvocationContext ctx, Object[] args) {
        Executor resume = resumeExecutor();
        CompletableFuture<LockedCall> locks = calls.newCallLater(args, nextCallOwner());
        if (locks.isDone() && !locks.isCompletedExceptionally()) {
            return lockedUni(ctx, locks.join(), resume);
        }
        // Padlock is still connecting: go on once it is.
        return Uni.createFrom().completionStage(locks).onItem().transformToUni(call -> lockedUni(ctx, call, resume));
    }

    private Uni<Object> lockedUni(InvocationContext ctx, LockedCall call, Executor resume) {
        CompletableFuture<Boolean> acquiring = acquireAllLater(call);
        return acquired(acquiring, resume)
                .onItem()
                .transformToUni(
                        taken -> Boolean.TRUE.equals(taken) && call.start() ? runUni(ctx, call, resume) : skippedUni())
                // Once the method started, the body's own hooks see the end: a subscriber cancelling while the
                // method runs still gets the Uni it returns subscribed by Mutiny (the item is dropped).
                .onCancellation()
                .invoke(() -> cancelled(call, acquiring, false));
    }

    /** The outcome of the acquisition, delivered on {@code resume}, never on Redisson's I/O threads. */
    private static Uni<Boolean> acquired(CompletableFuture<Boolean> acquiring, Executor resume) {
        return Uni.createFrom().completionStage(acquiring).emitOn(resume);
    }

    /**
     * The subscriber cancelled. Before the method started, the locks are released, also when they were taken just
     * as it cancelled (the method then does not run). After, the locks lapse if {@code lapseIfStarted}.
     */
    private void cancelled(LockedCall call, CompletableFuture<Boolean> acquiring, boolean lapseIfStarted) {
        if (call.abandon()) {
            acquiring.cancel(false); // releases what it takes from now on
            acquiring.thenAccept(taken -> {
                if (Boolean.TRUE.equals(taken)) {
                    releaser.releaseAllLater(call);
                }
            });
        } else if (lapseIfStarted) {
            releaser.letLapse(call);
        }
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> runUni(InvocationContext ctx, LockedCall call, Executor resume) {
        Uni<Object> body;
        try {
            body = (Uni<Object>) proceedBound(ctx, call);
        } catch (Throwable e) { // an Error too: nothing else would release
            return afterRelease(call, resume, null, e);
        }
        if (body == null) {
            return afterRelease(call, resume, null, null);
        }
        // A cancelled subscription hears nothing more of the body, whose work may go on: let the locks lapse.
        return body.onCancellation()
                .invoke(() -> releaser.letLapse(call))
                .onItemOrFailure()
                .transformToUni((item, failure) -> afterRelease(call, resume, item, failure));
    }

    private Multi<Object> lockedMulti(InvocationContext ctx, Object[] args) {
        return Multi.createFrom().deferred(() -> {
            Executor resume = resumeExecutor();
            CompletableFuture<LockedCall> locks = calls.newCallLater(args, nextCallOwner());
            if (locks.isDone() && !locks.isCompletedExceptionally()) {
                return lockedMulti(ctx, locks.join(), resume);
            }
            return Uni.createFrom()
                    .completionStage(locks)
                    .onItem()
                    .transformToMulti(call -> lockedMulti(ctx, call, resume));
        });
    }

    private Multi<Object> lockedMulti(InvocationContext ctx, LockedCall call, Executor resume) {
        CompletableFuture<Boolean> acquiring = acquireAllLater(call);
        return acquired(acquiring, resume)
                .onItem()
                .transformToMulti(taken ->
                        Boolean.TRUE.equals(taken) && call.start() ? runMulti(ctx, call, resume) : skippedMulti())
                // Cancelled while the method body ran, Mutiny never subscribes the stream it returns, so the body's
                // own hooks never run; the body may have started work, so the locks lapse.
                .onCancellation()
                .invoke(() -> cancelled(call, acquiring, true));
    }

    @SuppressWarnings("unchecked")
    private Multi<Object> runMulti(InvocationContext ctx, LockedCall call, Executor resume) {
        Object result;
        try {
            result = proceedBound(ctx, call);
        } catch (Throwable e) { // an Error too: nothing else would release
            return afterRelease(call, resume, null, e).toMulti();
        }
        if (result == null) {
            return afterRelease(call, resume, null, null).toMulti();
        }
        Multi<Object> body;
        if (result instanceof Multi<?> multi) {
            body = (Multi<Object>) multi;
        } else if (result instanceof Flow.Publisher<?> publisher) {
            body = Multi.createFrom().publisher((Flow.Publisher<Object>) publisher);
        } else {
            body = ReactiveStreams.multi(result);
        }
        // A cancelled subscription hears nothing more of the body, whose work may go on: let the locks lapse.
        return body.onCancellation()
                .invoke(() -> releaser.letLapse(call))
                .onFailure()
                .recoverWithMulti(
                        failure -> afterRelease(call, resume, null, failure).toMulti())
                .onCompletion()
                .call(() -> afterRelease(call, resume, null, null));
    }

    /**
     * Releases the call's locks, then continues on the subscriber's side with the call's outcome (see {@link
     * LockOperation#outcome}).
     */
    private Uni<Object> afterRelease(LockedCall call, Executor resume, Object item, Throwable failure) {
        return Uni.createFrom()
                .completionStage(() -> releaser.releaseAllLater(call))
                .emitOn(resume)
                .onItem()
                .transformToUni(released -> {
                    try {
                        return Uni.createFrom().item(outcome(call, item, failure));
                    } catch (Throwable t) {
                        return Uni.createFrom().failure(t);
                    }
                });
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> skippedUni() {
        return (Uni<Object>) skipped();
    }

    @SuppressWarnings("unchecked")
    private Multi<Object> skippedMulti() {
        return (Multi<Object>) skipped();
    }
}
