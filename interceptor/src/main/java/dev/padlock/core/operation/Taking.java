package dev.padlock.core.operation;

import dev.padlock.OnFailure;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.turns.LocalTurns;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One call's acquisition of its locks, as one object: the call, its lease, its one wait budget and the result its
 * caller awaits, which each step (turn, hand-off, the request to Redis: {@link RedisAttempt}) reads here instead
 * of being handed them. Every way it ends goes through one of three doors: {@link #done} (all taken), {@link #fail}
 * (what was taken released, the caller told why) or {@link #cancelled} (the caller gave up meanwhile: what was taken
 * released); a lock whose acquisition got no answer is undone in one place ({@link #inDoubt}). Built by {@link
 * Acquirer#acquireAllAsync}; its steps run on whichever thread answered the step before.
 */
final class Taking implements RedisAttempt.Answers {

    /** Where a skip is said (DEBUG): a run-once job's second instance, see the run-once guide. */
    private static final System.Logger LOG = System.getLogger(Taking.class.getName());

    private final AcquisitionRules rules;
    private final LockedCall call;
    private final long lease;
    /** When the wait budget ends ({@link System#nanoTime}). */
    private final long deadline;
    /** When the acquisition started ({@link System#nanoTime}), for the meter. */
    private final long started;

    final CompletableFuture<Boolean> result = new CompletableFuture<>();

    Taking(AcquisitionRules rules, LockedCall call, long lease, long started) {
        this.rules = rules;
        this.call = call;
        this.lease = lease;
        this.started = started;
        this.deadline = started + rules.waitMillis() * 1_000_000;
    }

    /** Takes lock {@code next} and the ones after it, skipping those the call shares with an enclosing call. */
    void takeFrom(int next) {
        int index = skipShared(next);
        if (index < 0) {
            String key = call.locks[call.takenCount()].getName();
            fail(
                    rules.notAcquired(
                            key,
                            "the call of its caller's transaction whose hold of this key it would share released it"
                                    + " just now (that transaction completed on another thread, e.g. rolled back"
                                    + " after its timeout)",
                            null),
                    LockEvents.Outcome.NOT_ACQUIRED);
            return;
        }
        if (index == call.locks.length) {
            done();
            return;
        }
        if (call.scope() != null && neverEnds(index)) {
            return;
        }
        long wait = index == 0 ? rules.waitMillis() : remainingMillis();
        if (!call.queuesFor(index)) {
            attempt(index, wait);
            return;
        }
        String key = call.locks[index].getName();
        CompletableFuture<Boolean> turn = rules.turns().await(key, wait);
        if (turn.getNow(false)) {
            // granted at once, the common case: no other call of the application holds the key (or its holder
            // handed it over just now, before this line: then with its hold)
            withTurn(index, turn, wait);
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
                withTurn(index, turn, remainingMillis()); // what is left of the wait goes to Redis
            } else {
                notFree(index);
            }
        });
    }

    /** Every lock is taken: the caller hears so, unless it gave up meanwhile. */
    private void done() {
        if (call.facts.meter() != null) {
            // before completing, so that whoever releases next reports the release after this
            call.acquisitionMetered();
            ended(call, LockEvents.Outcome.ACQUIRED, started);
        }
        if (!result.complete(true)) {
            rules.releaser().releaseAllLater(call); // cancelled while the last lock was being taken
        }
    }

    /**
     * The acquisition failed: what was taken is released (the turns with it) and the caller gets {@code failure};
     * the meter hears {@code outcome}, unless the caller ended the acquisition first.
     */
    private void fail(Throwable failure, LockEvents.Outcome outcome) {
        rules.releaser().releaseAllLater(call);
        if (result.completeExceptionally(failure)) {
            ended(call, outcome, started);
        }
    }

    /** Whether the caller gave up meanwhile; if so, what the call took is released (its turns passed on). */
    private boolean cancelled() {
        if (!result.isDone()) {
            return false;
        }
        rules.releaser().releaseAllLater(call);
        return true;
    }

    /**
     * Lock {@code index} got no answer, or was granted and not confirmed: it may be held, so it is undone like a taken
     * lock (owner-checked: the unlock finds nothing if it was not taken), with what else the call took.
     */
    @Override
    public void inDoubt(int index, Throwable failure, LockEvents.Outcome outcome) {
        call.takenInDoubt(index);
        fail(failure, outcome);
    }

    /**
     * Whether waiting for lock {@code index} could never end, as the call's release timing sees it (two transactions
     * each waiting for a key the other keeps until it completes): then the call fails at once, releasing what it took,
     * rather than wait its whole wait for a key that can only be released after its own scope ends.
     */
    private boolean neverEnds(int index) {
        String key = call.locks[index].getName();
        String why = rules.timing().neverEnds(call, key);
        if (why == null) {
            return false;
        }
        fail(rules.notAcquired(key, why, null), LockEvents.Outcome.NOT_ACQUIRED);
        return true;
    }

    /**
     * Counts the locks from {@code index} on that an enclosing call (or an earlier call of the caller's transaction)
     * holds as taken: shared, nothing to ask (a fencing token is the enclosing call's). Returns the first lock the call
     * must take itself, or -1 when a hold it would share was released meanwhile (see {@link LockedCall#shareHold}).
     */
    private int skipShared(int index) {
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
    private void withTurn(int index, CompletableFuture<Boolean> turn, long wait) {
        String key = call.locks[index].getName();
        HandOff.Hold hold = LocalTurns.<HandOff.Hold>handedOver(turn);
        try {
            if (!call.turns.tookTurn(index)) {
                // the call is being released already
                if (hold == null) {
                    rules.turns().pass(key);
                } else {
                    // nobody is left to hold the key: unlocked in Redis (owner-checked) before the next caller asks
                    HandingOn.giveBack(rules.commands(), call.locks[index], hold)
                            .whenComplete((ignored, failure) -> rules.turns().pass(key));
                }
            } else if (hold != null) {
                adopt(index, hold);
            } else if (!cancelled()) {
                // never more than half the wait left: giving way must not turn into failing to acquire
                long yield = Math.min(LocalTurns.yieldOf(turn), TimeUnit.MILLISECONDS.toNanos(wait) / 2);
                if (yield <= 0) {
                    attempt(index, wait);
                } else {
                    // the key was just unlocked while other applications wait for it in Redis: let them take it
                    CompletableFuture.delayedExecutor(yield, TimeUnit.NANOSECONDS, Runnable::run)
                            .execute(() -> attemptAfterYield(index));
                }
            }
        } catch (Throwable t) {
            fail(t, LockEvents.Outcome.ERROR);
        }
    }

    private void attemptAfterYield(int index) {
        try {
            if (!cancelled()) {
                attempt(index, remainingMillis());
            }
        } catch (Throwable t) {
            fail(t, LockEvents.Outcome.ERROR);
        }
    }

    /**
     * Lock {@code index} was handed to the call, held in Redis: taken without waiting, then on to the next lock. At
     * once, Redis is asked whether the hold is still there ({@link HandingOn#check}): the answer tells the call that handed it
     * on whether it held the key to its end, and this call whether it may hand the key on in turn. A caller that gave
     * up meanwhile releases it (or hands it on) like any lock it took.
     */
    private void adopt(int index, HandOff.Hold hold) {
        call.turns.adopt(index, hold);
        call.markTaken(index + 1);
        HandingOn.check(rules.commands(), call, index, hold);
        if (rules.leaseMillis() > 0) {
            // the adopter's own fixed lease is owed from now, whatever the settings of the call that handed it on
            call.owe(index, rules.ticker().getAsLong(), TimeUnit.MILLISECONDS.toNanos(rules.leaseMillis()));
        }
        // watched (again, for a later lock of the call): the renewal wakes by the adopted lock's needs
        call.startWatching();
        rules.renewal().watch(call);
        if (!cancelled()) {
            takeFrom(index + 1);
        }
    }

    private long remainingMillis() {
        return Math.max(0, (deadline - rules.ticker().getAsLong()) / 1_000_000);
    }

    /** Asks Redis for lock {@code index} within {@code wait}; the answer comes back through {@link Answers}. */
    private void attempt(int index, long wait) {
        RedisAttempt.ask(rules, call, index, wait, lease, this);
    }

    @Override
    public void failed(Throwable failure) {
        fail(failure, LockEvents.Outcome.ERROR);
    }

    /**
     * Lock {@code index} is the call's, confirmed by a command sent at {@code sent}: watched from now on, checked
     * early when callers of this application wait for it already (so that handing it on waits for nothing), then on to
     * the next lock.
     */
    @Override
    public void taken(int index, long sent) {
        call.confirmed(index, sent, lease);
        call.markTaken(index + 1);
        if (rules.handsOff() && call.turns.hasLocalWaiters(index)) {
            HandingOn.check(rules.commands(), call, index, null);
        }
        if (call.startWatching()) {
            rules.renewal().watch(call);
        }
        if (!cancelled()) {
            takeFrom(index + 1);
        }
    }

    /** Lock {@code index} was not free within the wait: release what the call took, then skip or fail. */
    @Override
    public void notFree(int index) {
        if (rules.plan().settings().onFailure() != OnFailure.SKIP) {
            fail(
                    rules.notAcquired(call.locks[index].getName(), "it is held by another caller", null),
                    LockEvents.Outcome.NOT_ACQUIRED);
            return;
        }
        rules.releaser().releaseAllLater(call);
        // What the method asked for (a run-once job on the instance that came second), not a problem. Said before the
        // caller is let go, so that the line precedes whatever the caller logs next.
        if (!result.isDone() && LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "Skipped {0}: lock {1} is held by another caller (onFailure = SKIP)",
                    rules.plan().method(),
                    call.locks[index].getName());
        }
        if (result.complete(false)) {
            ended(call, LockEvents.Outcome.SKIPPED, started);
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
            meter.acquired(outcome, call.facts.ticker().getAsLong() - started, call.acquiringToken());
        }
    }
}
