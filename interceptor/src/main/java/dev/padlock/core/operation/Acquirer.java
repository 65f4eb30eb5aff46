package dev.padlock.core.operation;

import dev.padlock.LockException;
import dev.padlock.LockLost;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LeaseBook;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.lease.LeaseHolder;
import dev.padlock.core.lease.LeaseRenewal;
import dev.padlock.core.lease.LockLosses;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.turns.LocalTurns;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Takes one method's locks for a call, in order, within one wait budget, without blocking: each key first in the
 * application's {@link LocalTurns} queue when its kind takes turns, then from Redis (or from the call that held it
 * before, see {@link HandOff}). Whatever goes wrong (not free, no answer, the caller gave up, a failure of Padlock's
 * own), what was taken is released and the turns are passed on. Built once per method.
 *
 * <p>Longer than the other classes (about 500 lines) on purpose: taking a call's locks is one state machine (turn,
 * hand-off, Redis attempt, retry within the wait, give-back) whose steps share one wait budget and one clean-up on
 * every failure; split apart, each piece would need the budget and the clean-up of the others.
 */
final class Acquirer {

    private static final System.Logger LOG = System.getLogger(Acquirer.class.getName());

    private final LockPlan plan;
    private final long waitMillis;
    /** A fixed lease, or -1 when the lock is renewed while held (watchdog mode). */
    private final long leaseMillis;

    private final boolean fenced;
    /**
     * Whether the method's work is done when it returns (a blocking method): only such a call, nested in one that
     * holds some of its keys, may share that hold.
     */
    private final boolean endsOnReturn;

    private final LockKind kind;
    private final LocalTurns<HandOff.Hold> turns;
    private final LeaseRenewal renewal;
    private final Releaser releaser;
    private final RedisClientSource client;
    private final TransactionWaits transactionWaits;
    /** Whom {@link #renewal} asks about the calls it watches. */
    private final LeaseHolder holder;
    /** Whether this method's calls hand their keys on: only then do they check a hold early ({@link #takeNext}). */
    private final boolean handsOn;

    Acquirer(
            LockPlan plan,
            long leaseMillis,
            boolean fenced,
            boolean endsOnReturn,
            LockKind kind,
            LocalTurns<HandOff.Hold> turns,
            EngineServices services,
            LeaseHolder holder,
            boolean handsOn) {
        this.plan = plan;
        this.waitMillis = plan.settings().waitTime().toMillis();
        this.leaseMillis = leaseMillis;
        this.fenced = fenced;
        this.endsOnReturn = endsOnReturn;
        this.kind = kind;
        this.turns = turns;
        this.renewal = services.renewal();
        this.releaser = services.releaser();
        this.client = services.client();
        this.transactionWaits = services.transactionWaits();
        this.holder = holder;
        this.handsOn = handsOn;
    }

    /**
     * Takes every lock of the call in order within one wait budget without blocking the caller. Completes with false
     * when one was not free and the caller chose SKIP, with {@link LockNotAcquiredException}, or with a {@link
     * LockException} for a nested call that can never share its caller's hold; on any failure, and when the result is
     * cancelled, the locks taken are released.
     */
    CompletableFuture<Boolean> acquireAllAsync(LockedCall call) {
        if (call.sharesHolds()) {
            LockException refused = refusedNested(call);
            if (refused != null) {
                ended(call, LockEvents.Outcome.REFUSED, System.nanoTime());
                return CompletableFuture.failedFuture(refused);
            }
        }
        long lease = leaseMillis > 0 ? leaseMillis : renewal.leaseMillis();
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Object transaction = call.transaction();
        if (transaction != null) {
            result.whenComplete((taken, failure) -> transactionWaits.waited(transaction, call));
        }
        takeNext(call, 0, lease, deadline, result);
        return result;
    }

    /**
     * Why a call nested in one that holds some of its keys cannot share that hold, or {@code null} when it can: it
     * can when its work ends before the enclosing call's does, which only a blocking method promises (its work is
     * done when it returns, inside the enclosing method); when the enclosing hold gives it the access it needs (a
     * read lock is never upgraded to a write lock); and only while the enclosing hold is not lost. The first two are
     * misuse that no retry can fix, so they are a {@link LockException}, not a {@link LockNotAcquiredException}.
     */
    private LockException refusedNested(LockedCall call) {
        for (int i = 0; i < call.locks.length; i++) {
            if (!call.sharesHold(i)) {
                continue;
            }
            LockedCall host = call.host(i);
            String key = call.locks[i].getName();
            String head = "Lock " + key + " for " + plan.method() + " cannot be taken inside the enclosing call to "
                    + host.facts.method() + ", which holds this key";
            if (!endsOnReturn) {
                return new LockException(head + ": a nested call returning " + returnedType()
                        + " can neither share that hold (its result may complete after the enclosing call released"
                        + " the key) nor wait for it (it would wait for its own caller), so it was refused at once."
                        + " Make this method return its result directly, or call it outside the enclosing call");
            }
            LockType held = host.facts.type();
            LockType wanted = call.facts.type();
            if (held != wanted && !(held == LockType.WRITE && wanted == LockType.READ)) {
                return new LockException(head + " as a " + held + " lock, which cannot be shared by a " + wanted
                        + " lock"
                        + (held == LockType.READ && wanted == LockType.WRITE
                                ? ": a read lock cannot be upgraded to a write lock (other readers may hold the key"
                                        + " beside it, and Redis grants a write lock only once every reader left,"
                                        + " this call's own caller included)."
                                        + " Take the WRITE lock in the enclosing call, or call this method outside it"
                                : ". Use one lock type for every method that can reach the key"));
            }
            if (host.isLost(call.hostIndex(i))) {
                return notAcquired(
                        key,
                        "the enclosing call to " + host.facts.method() + " holds this key but has lost"
                                + " it (see the LockLost event), so there is no hold to share",
                        null);
            }
        }
        return null;
    }

    private String returnedType() {
        return plan.returnKind().end().result();
    }

    private void takeNext(LockedCall call, int next, long lease, long deadline, CompletableFuture<Boolean> result) {
        int index = skipShared(call, next);
        if (index < 0) {
            releaser.releaseAllLater(call);
            String key = call.locks[call.takenCount()].getName();
            if (result.completeExceptionally(notAcquired(
                    key,
                    "the call of its caller's transaction whose hold of this key it would share released it just"
                            + " now (that transaction completed on another thread, e.g. rolled back after its timeout)",
                    null))) {
                ended(call, LockEvents.Outcome.NOT_ACQUIRED, deadline - waitMillis * 1_000_000);
            }
            return;
        }
        if (index == call.locks.length) {
            if (call.facts.meter() != null) {
                // before completing, so that whoever releases next reports the release after this
                call.acquisitionMetered();
                ended(call, LockEvents.Outcome.ACQUIRED, deadline - waitMillis * 1_000_000);
            }
            if (!result.complete(true)) {
                releaser.releaseAllLater(call); // cancelled while the last lock was being taken
            }
            return;
        }
        if (call.transaction() != null && closesATransactionCycle(call, index, deadline, result)) {
            return;
        }
        long wait = index == 0 ? waitMillis : remainingMillis(deadline);
        if (!call.queuesFor(index)) {
            attempt(call, index, wait, lease, deadline, result);
            return;
        }
        String key = call.locks[index].getName();
        CompletableFuture<Boolean> turn = turns.await(key, wait);
        if (turn.getNow(false)) {
            // granted at once, the common case: no other call of the application holds the key (or its holder
            // handed it over just now, before this line: then with its hold)
            withTurn(call, index, turn, wait, lease, deadline, result);
            return;
        }
        result.whenComplete((taken, failure) -> {
            if (result.isCancelled()) {
                turn.cancel(false); // stop queueing; a turn granted meanwhile is passed on in withTurn
            }
        });
        LockEvents.Meter meter = call.facts.meter();
        if (meter != null) {
            meter.queued();
        }
        turn.whenComplete((mine, failure) -> {
            if (meter != null) {
                meter.dequeued();
            }
            if (Boolean.TRUE.equals(mine)) {
                // what is left of the wait goes to Redis
                withTurn(call, index, turn, remainingMillis(deadline), lease, deadline, result);
            } else {
                notFree(call, index, deadline, result);
            }
        });
    }

    /**
     * Whether waiting for lock {@code index} would close a cycle of this application's transactions, each waiting for
     * a key the next keeps until it completes ({@link TransactionWaits}): then the call fails at once, releasing what
     * it took, rather than wait its whole wait for a key that can only be released after its own transaction ends.
     */
    private boolean closesATransactionCycle(
            LockedCall call, int index, long deadline, CompletableFuture<Boolean> result) {
        String key = call.locks[index].getName();
        List<String> cycle = transactionWaits.waitFor(call.transaction(), call, key);
        if (cycle == null) {
            return false;
        }
        releaser.releaseAllLater(call);
        String others = String.join(", which is kept by a transaction that waits for ", cycle.subList(1, cycle.size()));
        if (result.completeExceptionally(notAcquired(
                key,
                "another transaction of this application keeps this key until it completes and waits for " + others
                        + ", which this call's transaction keeps until it completes: each would wait for the other"
                        + " until its wait ends (padlock.release=after-transaction keeps every key a transaction"
                        + " took until it completes), so this call fails at once. Take the keys in one order in"
                        + " every transaction (sorted, for instance), or in one call with a key template per key"
                        + " (Padlock sorts them), or set padlock.locks.\"" + plan.lockName()
                        + "\".release=on-return",
                null))) {
            ended(call, LockEvents.Outcome.NOT_ACQUIRED, deadline - waitMillis * 1_000_000);
        }
        return true;
    }

    /**
     * Counts the locks from {@code index} on that an enclosing call (or an earlier call of the caller's transaction)
     * holds as taken: shared, nothing to ask (a fencing token is the enclosing call's). Returns the first lock the call
     * must take itself, or -1 when a hold it would share was released meanwhile (see {@link LockedCall#shareHold}).
     */
    private static int skipShared(LockedCall call, int index) {
        while (index < call.locks.length && call.sharesHold(index)) {
            if (!call.shareHold(index)) {
                return -1;
            }
            index++;
        }
        return index;
    }

    /**
     * The call has the turn for lock {@code index}: adopts the key when the turn came with its Redis hold (see {@link
     * HandOff}), else asks Redis for it (first giving way to other applications when the turn says so); unless the
     * call is over already. Runs on whichever thread granted the turn (often the previous holder's): a failure of its
     * own must not leave the turn or a handed hold behind, so whatever it throws releases the call and fails it.
     */
    private void withTurn(
            LockedCall call,
            int index,
            CompletableFuture<Boolean> turn,
            long wait,
            long lease,
            long deadline,
            CompletableFuture<Boolean> result) {
        String key = call.locks[index].getName();
        HandOff.Hold hold = LocalTurns.<HandOff.Hold>handedOver(turn);
        try {
            if (!call.tookTurn(index)) {
                // the call is being released already
                if (hold == null) {
                    turns.pass(key);
                } else {
                    // nobody is left to hold the key: unlocked in Redis (owner-checked) before the next caller asks
                    giveBack(call.locks[index], hold).whenComplete((ignored, failure) -> turns.pass(key));
                }
            } else if (hold != null) {
                adopt(call, index, hold, lease, deadline, result);
            } else if (result.isDone()) {
                releaser.releaseAllLater(call); // the caller cancelled meanwhile
            } else {
                // never more than half the wait left: giving way must not turn into failing to acquire
                long yield = Math.min(LocalTurns.yieldOf(turn), TimeUnit.MILLISECONDS.toNanos(wait) / 2);
                if (yield <= 0) {
                    attempt(call, index, wait, lease, deadline, result);
                } else {
                    // the key was just unlocked while other applications wait for it in Redis: let them take it
                    CompletableFuture.delayedExecutor(yield, TimeUnit.NANOSECONDS, Runnable::run)
                            .execute(() -> attemptAfterYield(call, index, lease, deadline, result));
                }
            }
        } catch (Throwable t) {
            failed(call, result, deadline, t);
        }
    }

    private void attemptAfterYield(
            LockedCall call, int index, long lease, long deadline, CompletableFuture<Boolean> result) {
        try {
            if (result.isDone()) {
                releaser.releaseAllLater(call); // the caller cancelled meanwhile; passes the turn
            } else {
                attempt(call, index, remainingMillis(deadline), lease, deadline, result);
            }
        } catch (Throwable t) {
            failed(call, result, deadline, t);
        }
    }

    /**
     * A hold handed to a call that cannot adopt it any more: unlocked in Redis, owner-checked, and the unlock's answer
     * given to the call that handed it on, as an adopter's check would have been.
     */
    private static CompletableFuture<Void> giveBack(RLock lock, HandOff.Hold hold) {
        return Acquisition.unlock(lock, hold.owner()).handle((ignored, failure) -> {
            Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
            if (cause == null) {
                hold.confirmed().complete(true);
            } else if (cause instanceof IllegalMonitorStateException) {
                hold.confirmed().complete(false);
            } else {
                hold.confirmed().completeExceptionally(cause);
            }
            return null;
        });
    }

    /**
     * Lock {@code index} was handed to the call, held in Redis: taken without waiting, then on to the next lock. At
     * once, Redis is asked whether the hold is still there ({@link #check}): the answer tells the call that handed it
     * on whether it held the key to its end, and this call whether it may hand the key on in turn. A caller that gave
     * up meanwhile releases it (or hands it on) like any lock it took.
     */
    private void adopt(
            LockedCall call,
            int index,
            HandOff.Hold hold,
            long lease,
            long deadline,
            CompletableFuture<Boolean> result) {
        call.adopt(index, hold);
        call.markTaken(index + 1);
        check(call, index, hold);
        if (leaseMillis > 0) {
            // the adopter's own fixed lease is owed from now, whatever the settings of the call that handed it on
            call.owe(index, System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(leaseMillis));
        }
        // watched (again, for a later lock of the call): the renewal wakes by the adopted lock's needs
        call.startWatching();
        renewal.watch(call, holder);
        if (result.isDone()) {
            releaser.releaseAllLater(call); // the caller cancelled meanwhile
            return;
        }
        takeNext(call, index + 1, lease, deadline, result);
    }

    /**
     * Asks Redis whether the owner of lock {@code index} still holds it, while {@code call} holds it; with {@code
     * handed}, the hold it was handed, whose previous holder waits for the answer. "Not held" is a loss of this call
     * ({@code HAND_OFF} for an adopted hold, {@code RENEWAL} otherwise), recorded before the previous holder and a
     * release of this call hear the answer.
     */
    static void check(LockedCall call, int index, HandOff.Hold handed) {
        call.beginCheck();
        CompletableFuture<Boolean> check = Acquisition.stillHeld(call.locks[index], call.ownerOf(index));
        call.checked(index, check);
        check.whenComplete((held, failure) -> {
            Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
            try {
                if (cause == null && !Boolean.TRUE.equals(held)) {
                    LockLosses.lostWhileHeld(
                            call,
                            index,
                            handed != null ? LockLost.Detection.HAND_OFF : LockLost.Detection.RENEWAL,
                            null);
                }
            } finally {
                if (handed != null) {
                    if (cause == null) {
                        handed.confirmed().complete(Boolean.TRUE.equals(held));
                    } else {
                        handed.confirmed().completeExceptionally(cause);
                    }
                }
                call.renewalAnswered(cause);
            }
        });
    }

    private static long remainingMillis(long deadline) {
        return Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
    }

    /** Asks Redis for lock {@code index} within {@code wait}, then goes on with the next one. */
    private void attempt(
            LockedCall call, int index, long wait, long lease, long deadline, CompletableFuture<Boolean> result) {
        RLock lock = call.locks[index];
        CompletableFuture<Boolean> attempt;
        long sent = System.nanoTime();
        try {
            attempt = fenced
                    ? Acquisition.tryFenced(lock, wait, lease, call.owner).thenApply(token -> {
                        if (token != null) {
                            call.recordToken(index, token);
                        }
                        return token != null;
                    })
                    : Acquisition.tryLock(lock, wait, lease, call.owner);
        } catch (Throwable e) {
            // e.g. the client shut down under the call (an Error too): nothing may stay held or registered for renewal
            failed(call, result, deadline, e);
            return;
        }
        attempt.whenComplete((taken, failure) -> {
            try {
                if (failure != null) {
                    // No answer is not "not taken": the script may have run (a timeout while the server was slow or
                    // paused). Undo it like a taken lock; the owner-checked unlock finds nothing if it had not.
                    call.takenInDoubt(index);
                    releaser.releaseAllLater(call);
                    Throwable cause = Acquisition.unwrap(failure);
                    if (result.completeExceptionally(
                            notAcquired(lock.getName(), Acquisition.whyNotAsked(cause), cause))) {
                        ended(call, LockEvents.Outcome.ERROR, deadline - waitMillis * 1_000_000);
                    }
                } else if (!Boolean.TRUE.equals(taken)) {
                    notFree(call, index, deadline, result);
                } else if (System.nanoTime() - sent > waitedLongerThan(lease)) {
                    confirmAfterWait(call, index, lease, deadline, result);
                } else {
                    taken(call, index, sent, lease, deadline, result);
                }
            } catch (Throwable t) {
                failed(call, result, deadline, t);
            }
        });
    }

    /**
     * How long an acquisition may take before its lease can no longer be timed from when it was sent: Redisson's
     * {@code tryLock(wait, ...)} runs the lock script again each time the key is released, so the script that
     * succeeded may have run long after the first was sent. Up to the drift margin, the deadline is then early by
     * less than the margin it already keeps; beyond, the hold is confirmed before the method runs.
     */
    private static long waitedLongerThan(long leaseMillis) {
        return LeaseBook.driftMarginNanos(TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    /**
     * Lock {@code index} was granted after a wait in Redis: extends its lease to the full lease, owner-checked, and
     * times the deadline from that, so that a caller that waited longer than its lease is not told at once that it
     * lost a lock it holds. One round trip, only for calls that waited in Redis.
     */
    private void confirmAfterWait(
            LockedCall call, int index, long lease, long deadline, CompletableFuture<Boolean> result) {
        RLock lock = call.locks[index];
        long sent = System.nanoTime();
        RedissonClient redisson = client.getNow();
        CompletableFuture<Boolean> confirmation;
        try {
            confirmation = kind.renew(redisson, lock, call.owner, lease).toCompletableFuture();
        } catch (Throwable e) {
            // an Error too: the lock is granted, so it goes the way of an unconfirmed one (released below)
            confirmation = CompletableFuture.failedFuture(e);
        }
        confirmation.whenComplete((held, failure) -> {
            try {
                if (failure == null && Boolean.TRUE.equals(held)) {
                    taken(call, index, sent, lease, deadline, result);
                    return;
                }
                // Granted, then not confirmed: released (owner-checked) like a lock in doubt, and the call fails.
                call.takenInDoubt(index);
                releaser.releaseAllLater(call);
                String reason = failure != null
                        ? "Redis could not be asked to confirm the lock it had granted after the wait (check that"
                                + " Redis is reachable from here)"
                        : "the lock Redis granted after the wait had expired before Padlock could confirm it (a lease"
                                + " shorter than Redis took to answer: use a longer lease-time, or none)";
                if (result.completeExceptionally(
                        notAcquired(lock.getName(), reason, failure == null ? null : Acquisition.unwrap(failure)))) {
                    ended(
                            call,
                            failure != null ? LockEvents.Outcome.ERROR : LockEvents.Outcome.NOT_ACQUIRED,
                            deadline - waitMillis * 1_000_000);
                }
            } catch (Throwable t) {
                failed(call, result, deadline, t);
            }
        });
    }

    /**
     * Lock {@code index} is the call's, confirmed by a command sent at {@code sent}: watched from now on, checked
     * early when callers of this application wait for it already (so that handing it on waits for nothing), then on to
     * the next lock.
     */
    private void taken(
            LockedCall call, int index, long sent, long lease, long deadline, CompletableFuture<Boolean> result) {
        call.confirmed(index, sent, lease);
        call.markTaken(index + 1);
        if (handsOn && call.hasLocalWaiters(index)) {
            check(call, index, null);
        }
        if (call.startWatching()) {
            renewal.watch(call, holder);
        }
        if (result.isDone()) {
            releaser.releaseAllLater(call); // the caller cancelled meanwhile
        } else {
            takeNext(call, index + 1, lease, deadline, result);
        }
    }

    /**
     * A failure of Padlock's own, or of the client, while taking the call's locks: what was taken is released (the
     * turns with it) and the caller gets the failure.
     */
    private void failed(LockedCall call, CompletableFuture<Boolean> result, long deadline, Throwable failure) {
        releaser.releaseAllLater(call);
        if (result.completeExceptionally(failure)) {
            ended(call, LockEvents.Outcome.ERROR, deadline - waitMillis * 1_000_000);
        }
    }

    /** Lock {@code index} was not free within the wait: release what the call took, then skip or fail. */
    private void notFree(LockedCall call, int index, long deadline, CompletableFuture<Boolean> result) {
        releaser.releaseAllLater(call);
        long started = deadline - waitMillis * 1_000_000;
        if (plan.settings().onFailure() == OnFailure.SKIP) {
            // What the method asked for (a run-once job on the instance that came second), not a problem. Said before
            // the caller is let go, so that the line precedes whatever the caller logs next.
            if (!result.isDone() && LOG.isLoggable(System.Logger.Level.DEBUG)) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "Skipped {0}: lock {1} is held by another caller (onFailure = SKIP)",
                        plan.method(),
                        call.locks[index].getName());
            }
            if (result.complete(false)) {
                ended(call, LockEvents.Outcome.SKIPPED, started);
            }
        } else if (result.completeExceptionally(
                notAcquired(call.locks[index].getName(), "it is held by another caller", null))) {
            ended(call, LockEvents.Outcome.NOT_ACQUIRED, started);
        }
    }

    /**
     * Tells the call's meter, if any, how its acquisition ended. Called only by whoever completed the acquisition, so
     * each call is counted once; a caller that gave up first is counted where it gave up ({@link LockOperation}).
     *
     * @param started when the acquisition started ({@link System#nanoTime})
     */
    static void ended(LockedCall call, LockEvents.Outcome outcome, long started) {
        LockEvents.Meter meter = call.facts.meter();
        if (meter != null) {
            meter.acquired(outcome, System.nanoTime() - started, call.acquiringToken());
        }
    }

    LockNotAcquiredException notAcquired(String key, String reason, Throwable cause) {
        return new LockNotAcquiredException(key, plan.method(), plan.settings().waitTime(), reason, cause);
    }
}
