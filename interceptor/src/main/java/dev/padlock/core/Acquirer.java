package dev.padlock.core;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.OnFailure;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.Acquisition;
import java.util.concurrent.CompletableFuture;
import org.redisson.api.RLock;

/**
 * Takes one method's locks for a call, in order, within one wait budget, without blocking: each key first in the
 * application's {@link LocalTurns} queue when its kind takes turns, then from Redis. Whatever goes wrong (not free,
 * no answer, the caller gave up), what was taken is released. Built once per method.
 */
final class Acquirer {

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

    private final LocalTurns turns;
    private final LeaseRenewal renewal;
    private final Releaser releaser;
    /** Whom {@link #renewal} asks about the calls it watches. */
    private final LeaseHolder holder;

    Acquirer(
            LockPlan plan,
            long leaseMillis,
            boolean fenced,
            boolean endsOnReturn,
            LocalTurns turns,
            EngineServices services,
            LeaseHolder holder) {
        this.plan = plan;
        this.waitMillis = plan.settings().waitTime().toMillis();
        this.leaseMillis = leaseMillis;
        this.fenced = fenced;
        this.endsOnReturn = endsOnReturn;
        this.turns = turns;
        this.renewal = services.renewal();
        this.releaser = services.releaser();
        this.holder = holder;
    }

    /**
     * Takes every lock of the call in order within one wait budget without blocking the caller. Completes with false
     * when one was not free and the caller chose SKIP, or with {@link LockNotAcquiredException}; on any failure, and
     * when the result is cancelled, the locks taken are released.
     */
    CompletableFuture<Boolean> acquireAllAsync(LockedCall call) {
        if (call.sharesHolds()) {
            LockNotAcquiredException refused = refusedNested(call);
            if (refused != null) {
                ended(call, LockEvents.Outcome.NOT_ACQUIRED, System.nanoTime());
                return CompletableFuture.failedFuture(refused);
            }
        }
        long lease = leaseMillis > 0 ? leaseMillis : renewal.leaseMillis();
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        takeNext(call, 0, lease, deadline, result);
        return result;
    }

    /**
     * Why a call nested in one that holds some of its keys cannot share that hold, or {@code null} when it can: it
     * can when its work ends before the enclosing call's does, which only a blocking method promises (its work is
     * done when it returns, inside the enclosing method); and only while the enclosing hold is not lost.
     */
    private LockNotAcquiredException refusedNested(LockedCall call) {
        for (int i = 0; i < call.locks.length; i++) {
            if (!call.sharesHold(i)) {
                continue;
            }
            LockedCall host = call.host(i);
            String key = call.locks[i].getName();
            if (!endsOnReturn) {
                return notAcquired(
                        key,
                        "the enclosing call to " + host.facts.method() + " holds this key, and a nested call returning "
                                + returnedType()
                                + " cannot share that hold (its result may complete after the enclosing call released"
                                + " the key), nor wait for it (it would wait for its own caller). Make this method"
                                + " return its result directly, or call it outside the enclosing call",
                        null);
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
        return switch (plan.returnKind()) {
            case COMPLETION_STAGE -> "a CompletionStage";
            case UNI, MULTI, FLOW_PUBLISHER, REACTIVE_STREAMS_PUBLISHER -> "a Uni, Multi or Publisher";
            case BLOCKING, OPTIONAL, OPTIONAL_INT, OPTIONAL_LONG, OPTIONAL_DOUBLE, PRIMITIVE -> "its result";
        };
    }

    private void takeNext(LockedCall call, int next, long lease, long deadline, CompletableFuture<Boolean> result) {
        int index = skipShared(call, next);
        if (index == call.locks.length) {
            if (call.facts.meter() != null) {
                // before completing, so that whoever releases next reports the release after this
                call.metered = true;
                ended(call, LockEvents.Outcome.ACQUIRED, deadline - waitMillis * 1_000_000);
            }
            if (!result.complete(true)) {
                releaser.releaseAllLater(call); // cancelled while the last lock was being taken
            }
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
            withTurn(call, index, key, LocalTurns.handedOver(turn), wait, lease, deadline, result);
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
                withTurn(
                        call,
                        index,
                        key,
                        LocalTurns.handedOver(turn),
                        remainingMillis(deadline),
                        lease,
                        deadline,
                        result);
            } else {
                notFree(call, index, deadline, result);
            }
        });
    }

    /**
     * Counts the locks from {@code index} on that an enclosing call on this thread holds as taken: shared, nothing to
     * ask (a fencing token is the enclosing call's). Returns the first lock the call must take itself.
     */
    private static int skipShared(LockedCall call, int index) {
        while (index < call.locks.length && call.sharesHold(index)) {
            if (call.tokens != null) {
                call.tokens[index] = call.host(index).tokens[call.hostIndex(index)];
            }
            call.markTaken(++index);
        }
        return index;
    }

    /**
     * The call has the turn for lock {@code index}: adopts the key when the turn came with its Redis {@code hold}
     * (see {@link HandOff}), else asks Redis for it; unless the call is over already.
     */
    private void withTurn(
            LockedCall call,
            int index,
            String key,
            HandOff.Hold hold,
            long wait,
            long lease,
            long deadline,
            CompletableFuture<Boolean> result) {
        if (!call.tookTurn(index)) {
            // the call is being released already
            if (hold == null) {
                turns.pass(key);
            } else {
                // nobody is left to hold the key: unlocked in Redis (owner-checked) before the next caller asks
                Acquisition.unlock(call.locks[index], hold.owner()).whenComplete((ignored, failure) -> turns.pass(key));
            }
        } else if (hold != null) {
            adopt(call, index, hold, lease, deadline, result);
        } else if (result.isDone()) {
            releaser.releaseAllLater(call); // the caller cancelled meanwhile
        } else {
            attempt(call, index, wait, lease, deadline, result);
        }
    }

    /**
     * Lock {@code index} was handed to the call, held in Redis: taken without a Redis command, then on to the next
     * lock. A caller that gave up meanwhile releases it (or hands it on) like any lock it took.
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
        if (result.isDone()) {
            releaser.releaseAllLater(call); // the caller cancelled meanwhile
            return;
        }
        call.handOff().adopted(call, index);
        // watched (again, for a later lock of the call): the renewal wakes by the adopted lock's needs
        call.watched = true;
        renewal.watch(call, holder);
        takeNext(call, index + 1, lease, deadline, result);
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
                            call.tokens[index] = token;
                        }
                        return token != null;
                    })
                    : Acquisition.tryLock(lock, wait, lease, call.owner);
        } catch (RuntimeException e) {
            // e.g. the client shut down under the call: nothing may stay held or registered for renewal
            releaser.releaseAllLater(call);
            if (result.completeExceptionally(e)) {
                ended(call, LockEvents.Outcome.ERROR, deadline - waitMillis * 1_000_000);
            }
            return;
        }
        attempt.whenComplete((taken, failure) -> {
            if (failure == null && Boolean.TRUE.equals(taken)) {
                call.confirmed(index, sent, lease);
                call.markTaken(index + 1);
                if (!call.watched) {
                    call.watched = true;
                    renewal.watch(call, holder);
                }
            }
            if (failure != null) {
                // No answer is not "not taken": the script may have run (a timeout while the server was slow or
                // paused). Undo it like a taken lock; the owner-checked unlock finds nothing if it had not.
                call.inDoubt = index;
                call.markTaken(index + 1);
                releaser.releaseAllLater(call);
                if (result.completeExceptionally(
                        notAcquired(lock.getName(), "Redis could not be asked", Acquisition.unwrap(failure)))) {
                    ended(call, LockEvents.Outcome.ERROR, deadline - waitMillis * 1_000_000);
                }
            } else if (!Boolean.TRUE.equals(taken)) {
                notFree(call, index, deadline, result);
            } else if (result.isDone()) {
                releaser.releaseAllLater(call); // the caller cancelled meanwhile
            } else {
                takeNext(call, index + 1, lease, deadline, result);
            }
        });
    }

    /** Lock {@code index} was not free within the wait: release what the call took, then skip or fail. */
    private void notFree(LockedCall call, int index, long deadline, CompletableFuture<Boolean> result) {
        releaser.releaseAllLater(call);
        long started = deadline - waitMillis * 1_000_000;
        if (plan.settings().onFailure() == OnFailure.SKIP) {
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
            meter.acquired(outcome, System.nanoTime() - started, call.acquiring);
        }
    }

    LockNotAcquiredException notAcquired(String key, String reason, Throwable cause) {
        return new LockNotAcquiredException(key, plan.method(), plan.settings().waitTime(), reason, cause);
    }
}
