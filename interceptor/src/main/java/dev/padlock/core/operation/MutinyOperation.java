package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.call.WorkStopper;
import dev.padlock.core.plan.LockPlan;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * What the operations of methods returning a deferred Mutiny type or a publisher share ({@link UniOperation}, {@link
 * MultiOperation}, {@link PublisherOperation}): nothing happens until the result is subscribed. Then the locks are
 * taken without blocking the subscriber, the method runs (so the pipeline it builds is built under the lock), and the
 * locks are held until the result emits its item, completes or fails. A cancellation (the subscriber's timeout, a
 * client gone) is forwarded, but the method's work may go on, and nothing more is heard of it: the locks then lapse
 * with their lease rather than being released (see {@link Releaser#letLapse}). Each subscription is a call of its
 * own, with its own owner id: a result never subscribed takes no lock, and one subscribed twice runs the method
 * twice, each time under the lock.
 *
 * <p>After the locks are taken, the method runs where the subscriber runs: on its Vert.x context when it has one
 * (Quarkus), else on Mutiny's default executor; never on Redisson's I/O threads. Loaded only by applications that
 * return these types, so Mutiny is needed only by them.
 */
abstract sealed class MutinyOperation extends LockOperation permits UniOperation, MultiOperation {

    MutinyOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services, false);
    }

    /** Where the call goes on once its locks are taken: the subscriber's context, else Mutiny's default executor. */
    final Executor resumeExecutor() {
        Executor caller = callers.capture();
        return caller != null ? caller : Infrastructure.getDefaultExecutor();
    }

    /** The outcome of the acquisition, delivered on {@code resume}, never on Redisson's I/O threads. */
    static Uni<Boolean> acquired(CompletableFuture<Boolean> acquiring, Executor resume) {
        return Uni.createFrom().completionStage(acquiring).emitOn(resume);
    }

    /**
     * The subscriber cancelled. Before the method started, the locks are released, also when they were taken just
     * as it cancelled (the method then does not run). After, the locks lapse if {@code lapseIfStarted}.
     */
    final void cancelled(LockedCall call, CompletableFuture<Boolean> acquiring, boolean lapseIfStarted) {
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

    /**
     * What completes {@link WorkStopper.Stopped exceptionally} when a lock of the call is lost while its result runs
     * ({@code on-lease-lost=interrupt}), for the operation to end the method's result with.
     */
    static CompletableFuture<Object> lossOf(LockedCall call) {
        CompletableFuture<Object> lost = new CompletableFuture<>();
        call.stopper().stopsResultWith(() -> lost.completeExceptionally(new WorkStopper.Stopped()));
        return lost;
    }

    /**
     * Releases the call's locks, then continues on the subscriber's side with the call's outcome (see {@link
     * LockOperation#outcome}).
     */
    final Uni<Object> afterRelease(LockedCall call, Executor resume, Object item, Throwable failure) {
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
}
