package dev.padlock.core.operation;

import dev.padlock.LockException;
import dev.padlock.LockLostException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.core.CallerContext;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.call.ThreadCalls;
import dev.padlock.core.call.WorkStopper;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.lease.LockLosses;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.turns.LocalTurns;
import jakarta.interceptor.InvocationContext;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What the interceptor runs for one {@code @Locked} method: render the keys, take the locks in order ({@link
 * Acquirer}), proceed, release on every exit ({@link Releaser}), and settle what the caller gets. Built once per
 * method; a call allocates only what the locks need. The subclasses differ in when the call ends: when the method
 * returns, when its stage completes, or when its stream does.
 */
public abstract class LockOperation {

    /**
     * Every call takes its locks under an owner id of its own, never a thread's: a thread goes on to make other calls,
     * and an id it shared with a hold it handed on, or one it lost, would let one call's unlock, renewal or re-entry
     * reach another's hold. Nested calls of a thread share holds through the call bound to it instead ({@link
     * LockedCall}). Ids count down from a random start below -2^32: negative, so they never collide with thread ids
     * (positive), which raw Redisson code sharing the client uses; random, because another application in the JVM may
     * bundle its own copy of Padlock (its own class loader, its own counter) and share the client, and Redis tells
     * owners apart by {@code <client id>:<owner>} only. Two starts drawn from 2^62 meet only if they lie within the
     * number of calls made of each other. An id is used for one acquisition only, so Redis never sees it twice.
     */
    private static final System.Logger LOG = System.getLogger(LockOperation.class.getName());

    private static final AtomicLong NEXT_CALL_OWNER =
            new AtomicLong(-(1L << 32) - (new SecureRandom().nextLong() >>> 2));

    final LockPlan plan;
    private final long waitMillis;
    private final boolean throwOnLoss;
    /** {@code on-lease-lost=interrupt}: the call's work is stopped at a loss, and its failure is the loss's. */
    final boolean stopsOnLoss;

    final CallerContext callers;
    final CallFactory calls;
    final Acquirer acquirer;
    final Releaser releaser;
    /** The engine's clock ({@link EngineServices#ticker}). */
    final LongSupplier ticker;
    /** When a call whose work is done releases: at once, or once what it ended inside completes. */
    final ReleaseTiming timing;
    /** What {@link #timing} may do with a call whose release it took over. */
    private final ReleaseTiming.Deferred deferred;

    /** @param endsOnReturn whether the method's work is done when it returns (see {@link Acquirer}) */
    LockOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services, boolean endsOnReturn) {
        LockKind kind = LockKind.of(plan.settings().type());
        boolean fenced = kind.fenced();
        // a fixed lease, or -1 when the lock is renewed while held (watchdog mode)
        long leaseMillis = plan.settings().usesWatchdog()
                ? -1
                : plan.settings().leaseTime().toMillis();
        // where the calls of this application queue for a key before asking Redis; null for shared or fair locks
        LocalTurns<HandOff.Hold> turns = kind.takesTurns() ? services.turns() : null;
        this.plan = plan;
        this.waitMillis = plan.settings().waitTime().toMillis();
        this.throwOnLoss = plan.settings().onLeaseLost().throwsOnLoss();
        this.stopsOnLoss = plan.settings().onLeaseLost() == LeaseLossPolicy.INTERRUPT;
        this.callers = services.callers();
        this.releaser = services.releaser();
        this.ticker = services.ticker();
        this.timing = services.releaseTiming(plan.settings().release());
        this.deferred = new ReleaseTiming.Deferred() {
            @Override
            public boolean mustFail(LockedCall call) {
                if (!throwOnLoss) {
                    LockLosses.overdueNow(call, ticker.getAsLong()); // found and reported, but nothing fails for it
                    return false;
                }
                // A renewal or a hand-off's check still in flight may yet find the lock lost: its answer decides, not
                // the moment the scope began to complete. Bounded like a release; answered at once, usually.
                Acquisition.awaitUninterruptibly(
                        call.inFlightAnswered(), ticker.getAsLong() + Releaser.RELEASE_TIMEOUT_NANOS, ticker);
                return LockLosses.overdueNow(call, ticker.getAsLong()) != null;
            }

            @Override
            public void release(LockedCall call) {
                releaser.releaseAll(call);
            }
        };
        HandOff handOff = HandOff.of(plan.settings(), kind.handsOff(), leaseMillis, services.renewal()::leaseMillis);
        this.acquirer = new Acquirer(plan, leaseMillis, fenced, endsOnReturn, kind, turns, services, handOff != null);
        this.calls = new CallFactory(plan, parameterTypes, kind, fenced, turns, handOff, services, acquirer);
    }

    /** An owner id for a new call. */
    static long nextCallOwner() {
        return NEXT_CALL_OWNER.decrementAndGet();
    }

    public abstract Object invoke(InvocationContext ctx) throws Exception;

    public LockPlan plan() {
        return plan;
    }

    /**
     * Takes every lock of the call, waiting on the calling thread: {@link Acquirer#acquireAllAsync}, awaited. A
     * caller interrupted while waiting cancels it, which releases whatever it took; nothing stays held.
     *
     * @return true when all are held; false when one was not free in time and the caller chose SKIP
     * @throws LockNotAcquiredException otherwise
     */
    final boolean acquireAll(LockedCall call) {
        long started = call.facts.meter() != null ? ticker.getAsLong() : 0;
        CompletableFuture<Boolean> acquiring = acquirer.acquireAllAsync(call);
        try {
            return acquiring.get(Acquisition.answerDeadlineMillis(waitMillis), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            if (abandon(call, acquiring)) {
                Taking.ended(call, LockEvents.Outcome.INTERRUPTED, started);
            }
            Thread.currentThread().interrupt();
            throw acquirer.notAcquired(call.locks[0].getName(), "the calling thread was interrupted", e);
        } catch (TimeoutException e) {
            if (abandon(call, acquiring)) {
                Taking.ended(call, LockEvents.Outcome.ERROR, started);
            }
            throw unanswered(call, e);
        } catch (ExecutionException e) {
            // LockNotAcquiredException, or e.g. the client shut down under the call; nothing is left held
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /**
     * Takes every lock of the call without waiting: {@link Acquirer#acquireAllAsync}, failed with {@link
     * LockNotAcquiredException} when Redis has not answered by the wait plus the same grace a blocking caller gives it
     * (a timer only while the answer is outstanding). What the attempt takes later, it releases.
     */
    final CompletableFuture<Boolean> acquireAllLater(LockedCall call) {
        CompletableFuture<Boolean> acquiring = acquirer.acquireAllAsync(call);
        if (acquiring.isDone()) {
            return acquiring;
        }
        CompletableFuture<Boolean> result = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                acquiring.cancel(false); // releases what it takes from now on
                return super.cancel(mayInterruptIfRunning);
            }
        };
        acquiring.whenComplete((taken, failure) -> {
            boolean delivered = failure == null ? result.complete(taken) : result.completeExceptionally(failure);
            if (!delivered && Boolean.TRUE.equals(taken)) {
                // taken just as the caller gave up, or as its deadline passed: the method does not run
                releaser.releaseAllLater(call);
            }
        });
        // A timer that is cancelled as soon as the result is in.
        CompletableFuture<Void> deadline = new CompletableFuture<>();
        deadline.orTimeout(Acquisition.answerDeadlineMillis(waitMillis), TimeUnit.MILLISECONDS)
                .whenComplete((ignored, timeout) -> {
                    if (timeout != null && result.completeExceptionally(unanswered(call, timeout))) {
                        acquiring.cancel(false);
                    }
                });
        result.whenComplete((taken, failure) -> deadline.complete(null));
        return result;
    }

    private LockNotAcquiredException unanswered(LockedCall call, Throwable timeout) {
        return acquirer.notAcquired(
                call.locks[0].getName(),
                "Redis did not answer the lock request within " + Acquisition.answerGraceSeconds()
                        + " s beyond the wait (a failover under way, or no replica confirming the lock within"
                        + " padlock.redis.replica-timeout); the call may be retried once Redis answers again, and a"
                        + " replica that stays behind needs its link to the master checked",
                timeout);
    }

    /**
     * The caller gives up waiting: the acquisition releases what it takes from now on, and what it took. True when
     * the caller ended the acquisition (and so reports how it ended), false when it had ended already.
     */
    private boolean abandon(LockedCall call, CompletableFuture<Boolean> acquiring) {
        if (acquiring.cancel(false)) {
            return true;
        }
        if (!acquiring.isCompletedExceptionally() && acquiring.join()) {
            releaser.releaseAll(call);
        }
        return false;
    }

    /** Refuses a call that would block a thread that must not block, before anything is taken. */
    final void refuseIfCallerMustNotBlock() {
        if (callers.mustNotBlock()) {
            throw new LockException("@Locked " + plan.method() + " was called on "
                    + Thread.currentThread().getName() + ", an event-loop thread, and waiting for its lock would"
                    + " block the loop. Return Uni, Multi or CompletionStage (the lock is then taken without"
                    + " blocking), or call it from a worker thread (e.g. annotate the caller @Blocking).");
        }
    }

    /**
     * What a call returns that SKIP let pass without running the method: the empty value of its return type. The
     * reactive operation gives that of the stream it builds instead.
     */
    Object skipped() {
        return plan.returnKind().emptyResult();
    }

    /**
     * Runs the method body with {@code call} bound to this thread, so that {@link dev.padlock.LockContext} sees it;
     * with {@code on-lease-lost=interrupt}, the thread is interrupted at a loss while the body runs, and no longer
     * once it returned (an interrupt it got for the loss is cleared then).
     */
    static Object proceedBound(InvocationContext ctx, LockedCall call) throws Exception {
        LockedCall outer = ThreadCalls.bind(call);
        WorkStopper stopper = call.stopper();
        if (stopper != null) {
            stopper.bodyRuns();
        }
        try {
            return ctx.proceed();
        } finally {
            if (stopper != null) {
                stopper.bodyReturned();
            }
            ThreadCalls.unbind(outer);
        }
    }

    /** Releases the call's locks, waiting for Redis, then gives the caller its {@link #outcome}. */
    final Object releaseThenOutcome(LockedCall call, Object value, Throwable failure) throws Exception {
        releaser.releaseAll(call);
        return outcome(call, value, failure);
    }

    /**
     * A call whose work is done: releases its locks now, or, when it ended inside something its release waits for (its
     * caller's transaction), leaves them to {@link #timing}; then gives the caller its {@link #outcome}, which counts
     * the locks lost so far.
     */
    final Object endThenOutcome(LockedCall call, Object value, Throwable failure) throws Exception {
        if (call.takenCount() > 0 && timing.defer(call, deferred)) {
            return outcome(call, value, failure);
        }
        return releaseThenOutcome(call, value, failure);
    }

    /**
     * What the caller gets once the call's locks are released, whatever the method returns: its value; its failure
     * (thrown as is), with a lost lock suppressed into it; or {@link LockLostException} when a lock was lost and
     * {@code on-lease-lost=throw}; with {@code interrupt}, {@link LockLostException} with the method's failure (the
     * interrupt's, usually) suppressed into it.
     */
    final Object outcome(LockedCall call, Object value, Throwable failure) throws Exception {
        LockLostException lost = LockLosses.lostException(call, throwOnLoss);
        if (stopsOnLoss && lost != null) {
            // The work was stopped for the loss: the loss is what the caller hears of, what stopping did beside it.
            if (failure != null && !(Acquisition.unwrap(failure) instanceof WorkStopper.Stopped)) {
                lost.addSuppressed(failure);
            }
            throw lost;
        }
        if (failure != null) {
            if (lost != null) {
                failure.addSuppressed(lost);
            }
            throw LockOperation.<Exception>rethrow(failure);
        }
        if (lost != null) {
            throw lost;
        }
        return value;
    }

    /** Completes {@code toCaller} with the call's {@link #outcome}. */
    final void settle(CompletableFuture<Object> toCaller, LockedCall call, Object value, Throwable failure) {
        try {
            toCaller.complete(outcome(call, value, failure));
        } catch (Throwable t) {
            toCaller.completeExceptionally(t);
        }
    }

    /** Throws the method's own failure unchanged, whatever its type (the body may throw any Throwable). */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T rethrow(Throwable failure) throws T {
        throw (T) failure;
    }
}
