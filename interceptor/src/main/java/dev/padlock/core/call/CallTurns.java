package dev.padlock.core.call;

import dev.padlock.core.turns.LocalTurns;
import java.util.concurrent.CompletableFuture;
import org.redisson.api.RLock;

/**
 * One call's place in this application's queue for each of its keys ({@link LocalTurns}), and what hand-off ({@link
 * HandOff}) needs of it: which turns it holds, the holds handed to it, the checks Redis answered while it held a key,
 * and whether, finishing, it may hand a key on. The hand-off vocabulary: a finishing call <em>hands on</em> its hold,
 * the next <em>adopts</em> it; a call that unlocked a key others wait for in Redis has the next local caller <em>give
 * way</em>. Guarded by the call's monitor, as the call's phase is, so that a turn is never taken by a call whose
 * release began.
 */
public final class CallTurns {

    /** The call, as far as its turns need it: what it took and its leases; its monitor guards {@link #held}. */
    private final TakenLocks call;

    private final RLock[] locks;
    /** The call's own owner id ({@link LockedCall#owner}). */
    private final long owner;
    /** Where the call queues for its keys before asking Redis; {@code null} for locks that take no turns. */
    private final LocalTurns<HandOff.Hold> turns;
    /** With {@link #turns}: which locks this call holds the turn for (guarded by the call). */
    private final boolean[] held;
    /** When the call's locks are handed on to the next local caller instead of unlocked; {@code null}: never. */
    private final HandOff handOff;

    /**
     * By lock index, the Redis hold another call of this application handed to this one, or {@code null}; {@code
     * null} until the first. Written by the thread that adopts, before the lock counts as taken.
     */
    private volatile HandOff.Hold[] adopted;

    CallTurns(TakenLocks call, RLock[] locks, long owner, LocalTurns<HandOff.Hold> turns, HandOff handOff) {
        this.call = call;
        this.locks = locks;
        this.owner = owner;
        this.turns = turns;
        this.held = turns != null ? new boolean[locks.length] : null;
        this.handOff = handOff;
    }

    /** Whether the call's locks queue in {@link LocalTurns} at all (not for shared or fair locks). */
    boolean queue() {
        return turns != null;
    }

    /**
     * The turn for lock {@code index} was granted to this call; false when the call has ended meanwhile, so the
     * caller must pass the turn on itself.
     */
    public boolean tookTurn(int index) {
        synchronized (call) {
            if (!call.holdsLocks()) {
                return false;
            }
            held[index] = true;
            return true;
        }
    }

    /**
     * Lock {@code index} is released, was never taken, or its lease is over: the next call of this application may
     * ask Redis. Passes the turn at most once per lock and call, and only if this call holds it.
     */
    public void passTurn(int index) {
        passTurn(index, 0);
    }

    /**
     * As {@link #passTurn(int)}; the next caller waits {@code yieldNanos} before asking Redis, so that a caller of
     * another application, waiting in Redis for the key this call just unlocked, gets it first.
     */
    public void passTurn(int index, long yieldNanos) {
        if (turns == null) {
            return;
        }
        synchronized (call) {
            if (!held[index]) {
                return;
            }
            held[index] = false;
        }
        turns.pass(locks[index].getName(), yieldNanos);
    }

    /**
     * The owner id lock {@code index} is held under in Redis: the call's own when it took the lock from Redis, or for
     * a lock handed to it, the hold's (see {@link HandOff.Hold}): an owner id names one Redis hold, and passes with it.
     */
    public long ownerOf(int index) {
        HandOff.Hold[] holds = adopted;
        return holds == null || holds[index] == null ? owner : holds[index].owner();
    }

    /** The hold of lock {@code index} that was handed to this call, or {@code null} if it took the lock itself. */
    HandOff.Hold adoptedHold(int index) {
        HandOff.Hold[] holds = adopted;
        return holds == null ? null : holds[index];
    }

    /**
     * Lock {@code index} was handed to this call with {@code hold}, the turn with it: the call holds it under the
     * hold's owner until the inherited deadline (or a later one Redis confirms). The caller then marks it taken.
     */
    public void adopt(int index, HandOff.Hold hold) {
        HandOff.Hold[] holds = adopted;
        if (holds == null) {
            holds = new HandOff.Hold[locks.length];
        }
        holds[index] = hold;
        adopted = holds;
        call.inherited(index, hold.deadline());
    }

    /**
     * By lock index, Redis's answer to a check sent while this call held the lock (after it began), that its owner
     * still holds it; {@code null} until the first. Only such an answer lets the call hand the lock on ({@link
     * HandOff}).
     */
    private volatile CompletableFuture<?>[] checks;

    /** Records the check of lock {@code index} sent while this call holds it (see {@link #checkOf}). */
    public void checked(int index, CompletableFuture<Boolean> check) {
        CompletableFuture<?>[] all = checks;
        if (all == null) {
            all = new CompletableFuture<?>[locks.length];
        }
        all[index] = check;
        checks = all;
    }

    /** The check of lock {@code index} sent while this call held it, or {@code null}: none was sent. */
    @SuppressWarnings("unchecked")
    public CompletableFuture<Boolean> checkOf(int index) {
        CompletableFuture<?>[] all = checks;
        return all == null ? null : (CompletableFuture<Boolean>) all[index];
    }

    /** Whether other calls of this application wait for lock {@code index}'s key; a hint (see {@link LocalTurns}). */
    public boolean hasLocalWaiters(int index) {
        return turns != null && turns.hasWaiters(locks[index].getName());
    }

    /**
     * The call is done with lock {@code index}, which Redis confirmed it holds: hands {@code hold} (the key, still held
     * in Redis) to the next call of this application waiting for it. True when handed on: the turn went with it;
     * false when nobody took it, and the caller must unlock it and pass the turn as usual.
     */
    public boolean handOn(int index, HandOff.Hold hold) {
        synchronized (call) {
            if (!held[index]) {
                return false; // passed on already (found lost just now): the next caller asks Redis
            }
            held[index] = false; // claimed here, so that no one passes it beside the hand-off
        }
        if (turns.handOff(locks[index].getName(), hold)) {
            return true;
        }
        synchronized (call) {
            held[index] = true; // nobody waits: kept until the key is unlocked in Redis
        }
        return false;
    }

    /**
     * Whether the call, finishing, may hand lock {@code index} on, by what it knows itself: not lost, not in doubt, no
     * renewal or check failed (a loss suspected must surface, not travel), and within its {@link HandOff} bounds.
     * Redis's confirmation is asked for separately. Called once the call's renewals and checks are answered and none
     * is sent any more.
     */
    public boolean mayHandOn(int index, long now) {
        if (handOff == null || call.isInDoubt(index) || call.isLost(index) || call.lastRenewalFailure() != null) {
            return false;
        }
        return handOff.allows(adoptedHold(index), chainStart(index), call.ownDeadline(index), now);
    }

    /** The hold of lock {@code index} to hand to the next local caller, once {@link #mayHandOn} said yes. */
    public HandOff.Hold holdToHandOn(int index) {
        HandOff.Hold adopted = adoptedHold(index);
        return new HandOff.Hold(
                ownerOf(index),
                call.ownDeadline(index),
                chainStart(index),
                (adopted == null ? 0 : adopted.handOffs()) + 1,
                new CompletableFuture<>());
    }

    /**
     * How long this application's next caller sits out after this call ended its chain on lock {@code index} by
     * unlocking it while {@code others} other clients wait for it in Redis (see {@link HandOff#sitOutNanos}); 0
     * where keys are not handed on.
     */
    public long sitOutNanos(int index, long others, long now) {
        return handOff == null ? 0 : handOff.sitOutNanos(chainStart(index), others, now);
    }

    /**
     * A call that took the key from Redis starts the chain when it took its first lock: for a later lock of a
     * multi-key call that is a little early, which only ends the chain sooner.
     */
    private long chainStart(int index) {
        HandOff.Hold adopted = adoptedHold(index);
        return adopted == null ? call.acquiredNanos() : adopted.chainStart();
    }
}
