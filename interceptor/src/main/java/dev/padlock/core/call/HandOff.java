package dev.padlock.core.call;

import dev.padlock.core.plan.LockSettings;
import dev.padlock.core.turns.LocalTurns;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When a call that finishes hands its Redis hold of a key to the next call of this application queued for that key
 * ({@link LocalTurns}), instead of unlocking it in Redis for that caller to lock it again: a hot key then costs one
 * lock and one unlock script per chain of local callers, and one {@code HEXISTS} per hand-off, rather than a lock and
 * an unlock script per caller. The key stays held in Redis the whole time, so other applications are kept out
 * exactly as before. Built once per method; {@code null} where hand-off is off.
 *
 * <p>Identity: an owner id names one Redis hold. The call that takes a key from Redis takes it under its own id (ids
 * are never reused, see {@code LockOperation.nextCallOwner}); a hand-off passes the hold, its id with it, to the
 * adopting call, which from then on is its only owner: the call that handed it on sends nothing more under it (its
 * renewals were answered before it let go), so no release, renewal or re-entry of one call can reach another's hold.
 *
 * <p>Redis's knowledge is never outrun. Each adopter asks Redis, as it starts, whether the hold's owner still holds
 * the key ({@link dev.padlock.core.redis.Acquisition#stillHeld}). Because an owner id is written once, "held" means
 * held without a break since the hold was taken, so that one answer settles two calls:
 *
 * <ul>
 *   <li>the previous holder's whole run, which ended before the question was sent: the previous holder returns only
 *       once it is answered, and learns of a loss ({@code LockLost} {@code RELEASE}) exactly as its own unlock would
 *       have told it;
 *   <li>the adopter's own start: it may hand the key on only once Redis confirmed it by a command sent while it held
 *       the key. A call that took the key from Redis sends that check when it finds callers waiting (at once if they
 *       wait when it takes the key, else when it finishes).
 * </ul>
 *
 * So a call starts by hand-off only on a hold that Redis confirmed after its predecessor began, a loss is told to
 * every call that ran after it (the one running when it happened, at its end; the next, which started on the lost
 * hold, within one round trip, as {@code LockLost} {@code HAND_OFF}), and the key is not handed on past it. A body
 * longer than one round trip waits for nothing: its check is answered before it ends.
 *
 * <p>A hold is handed on only while it is sound and the chain is within its bound ({@link CallTurns#mayHandOn}):
 *
 * <ul>
 *   <li>not lost, not in doubt, and no renewal or check failed: a loss suspected must surface, not travel;
 *   <li>its deadline at least a third of the lease ahead: the next holder's first renewal (watchdog mode) or
 *       extension (fixed lease) then has the time the renewal gives any lock after its first third, three of its
 *       retries every tenth of the lease, before anyone could have to consider the key lost;
 *   <li>fewer than {@code limit} hand-offs since the key was taken from Redis, and less than {@code budget} since
 *       then: past either, the key is unlocked in Redis and the next local caller asks Redis like everyone else, after
 *       giving way to callers of other applications waiting there ({@code Releaser}).
 * </ul>
 *
 * <p>Each holder is its own call: its own acquisition and release in the meters, its own {@code LockLost}, its own
 * {@code LockContext}. A fixed lease is owed to each holder in full from its adoption: {@code LeaseRenewal} extends
 * the key's lease (owner-checked; the deadline moves only when Redis confirms) once the inherited deadline is as close
 * as a renewal would let it come, so a chain of short calls costs no extension; watchdog-mode locks go on being
 * renewed by {@code LeaseRenewal}, which watches the adopter from its adoption. The adopter's own settings decide what
 * it is owed; its hand-off settings only decide whether it hands the key on in turn.
 *
 * <p>Not for {@code FENCED} locks: each holder must get a strictly larger token than the one before, and only a
 * lock script in Redis can hand one out, so a hand-off would either share a token or cost the round trip it saves.
 * {@code FAIR} and {@code READ} locks do not queue locally, so they have no one to hand to.
 */
public final class HandOff {

    /**
     * A Redis hold passed from one call to the next.
     *
     * @param owner the owner id the key is held under in Redis, that of the call that took it from Redis: it names the
     *     hold, and passes with it
     * @param deadline the finishing holder's confirmed deadline ({@link System#nanoTime}), which the adopter inherits
     * @param chainStart when the chain's first holder took the key ({@link System#nanoTime})
     * @param handOffs how many hand-offs the chain has had, this one included
     * @param confirmed Redis's answer to the first command sent under the hold after it was handed on: the adopter's
     *     check, or the unlock of a caller that gave up before it could adopt. True when the owner still held the
     *     key (so through the finishing holder's end), false when it did not; completed exceptionally when Redis
     *     could not say. The finishing holder waits for it before it returns.
     */
    public record Hold(
            long owner, long deadline, long chainStart, int handOffs, CompletableFuture<Boolean> confirmed) {}

    private final int limit;
    private final long budgetNanos;
    /** A fixed lease, or -1 in watchdog mode. */
    private final long fixedLeaseMillis;
    /** The watchdog lease, read when first needed (it comes from the client's configuration). */
    private final LongSupplier watchdogLeaseMillis;

    private HandOff(int limit, long budgetNanos, long fixedLeaseMillis, LongSupplier watchdogLeaseMillis) {
        this.limit = limit;
        this.budgetNanos = budgetNanos;
        this.fixedLeaseMillis = fixedLeaseMillis;
        this.watchdogLeaseMillis = watchdogLeaseMillis;
    }

    /**
     * The hand-off rules of a method's calls, or {@code null} when its locks are not handed on: switched off
     * (a limit or budget of 0), a kind that does not queue locally or is fenced (see the class comment), or a lock
     * held at least for a time: such a key must stay with the call that took it, to expire when its time is up.
     *
     * @param handsOff {@code LockKind.handsOff()} of the method's lock type
     * @param fixedLeaseMillis a fixed lease, or -1 in watchdog mode
     * @param watchdogLeaseMillis the lease the renewal keeps in watchdog mode
     */
    public static HandOff of(
            LockSettings settings, boolean handsOff, long fixedLeaseMillis, LongSupplier watchdogLeaseMillis) {
        if (!handsOff
                || settings.handOffLimit() == 0
                || settings.handOffBudget().isZero()
                || settings.holdsAtLeast()) {
            return null;
        }
        return new HandOff(
                settings.handOffLimit(), settings.handOffBudget().toNanos(), fixedLeaseMillis, watchdogLeaseMillis);
    }

    /**
     * Whether a sound hold (see {@link CallTurns#mayHandOn}) is within the chain's bounds and far enough from its
     * deadline to be handed on (see the class comment).
     *
     * @param adopted the hold as it was handed to the finishing call, or {@code null} if that call took it from Redis
     * @param chainStart when the chain's first holder took the key ({@link System#nanoTime})
     * @param deadline the finishing call's confirmed deadline for the key, 0 if none
     */
    boolean allows(Hold adopted, long chainStart, long deadline, long now) {
        if ((adopted == null ? 0 : adopted.handOffs()) >= limit || now - chainStart >= budgetNanos) {
            return false;
        }
        return deadline != 0 && deadline - now >= marginNanos();
    }

    /**
     * How long this application's next caller sits out after a chain that began at {@code chainStart} ended by
     * unlocking the key while {@code others} other clients wait for it in Redis: as long as the chain held the key,
     * once for each of the others but one (they take their turns meanwhile, one of them at once), at most the budget.
     * Turns then go round instead of to whichever waiter happens to answer first.
     */
    long sitOutNanos(long chainStart, long others, long now) {
        return others < 2 ? 0 : Math.min((others - 1) * (now - chainStart), budgetNanos);
    }

    /** How far ahead the deadline of a hold handed on must be: a third of the lease (see the class comment). */
    private long marginNanos() {
        long lease = fixedLeaseMillis > 0 ? fixedLeaseMillis : watchdogLeaseMillis.getAsLong();
        return TimeUnit.MILLISECONDS.toNanos(lease) / 3;
    }
}
