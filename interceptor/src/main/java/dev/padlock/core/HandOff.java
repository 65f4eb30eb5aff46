package dev.padlock.core;

import dev.padlock.LockType;
import dev.padlock.core.plan.LockSettings;
import java.util.concurrent.TimeUnit;

/**
 * When a call that finishes hands its Redis hold of a key to the next call of this application queued for that key
 * ({@link LocalTurns}), instead of unlocking it in Redis for that caller to lock it again: a hot key then costs one
 * lock and one unlock script per chain of local callers rather than per caller. The key stays held in Redis the whole
 * time, under the owner id of the call that took it (renewals and the final unlock stay owner-checked), so other
 * applications are kept out exactly as before. Built once per method; {@code null} where hand-off is off.
 *
 * <p>A hold is handed on only while it is sound and the chain is within its bound, decided by the finishing holder
 * at release time ({@link #holdToHandOn}):
 *
 * <ul>
 *   <li>not lost, not in doubt, and no renewal failed: a loss suspected must surface, not travel;
 *   <li>its deadline at least a third of the lease ahead: the next holder's first renewal (watchdog mode) or
 *       extension (fixed lease) then has the time the renewal gives any lock after its first third, three of its
 *       retries every tenth of the lease, before anyone could have to consider the key lost;
 *   <li>fewer than {@code limit} hand-offs since the key was taken from Redis, and less than {@code budget} since
 *       then: past either, the key is unlocked in Redis and the next local caller asks Redis like everyone else, so
 *       callers of other applications waiting in Redis get their chance.
 * </ul>
 *
 * <p>Each holder is its own call: its own acquisition and release in the meters, its own {@code LockLost}, its own
 * {@code LockContext}. A fixed lease is owed to each holder in full from its adoption: {@link LeaseRenewal} extends
 * the key's lease (owner-checked; the deadline moves only when Redis confirms) once the inherited deadline is as close
 * as a renewal would let it come, so a chain of short calls costs no extension; watchdog-mode locks go on being
 * renewed by {@link LeaseRenewal}, which watches the adopter from its adoption.
 *
 * <p>Not for {@code FENCED} locks: each holder must get a strictly larger token than the one before, and only a
 * lock script in Redis can hand one out, so a hand-off would either share a token or cost the round trip it saves.
 * {@code FAIR} and {@code READ} locks do not queue locally, so they have no one to hand to.
 */
final class HandOff {

    /**
     * A Redis hold passed from one call to the next.
     *
     * @param owner the owner id the key is held under in Redis (that of the call that took it from Redis)
     * @param deadline the finishing holder's confirmed deadline ({@link System#nanoTime}), which the adopter inherits
     * @param chainStart when the chain's first holder took the key ({@link System#nanoTime})
     * @param handOffs how many hand-offs the chain has had, this one included
     */
    record Hold(long owner, long deadline, long chainStart, int handOffs) {}

    private final int limit;
    private final long budgetNanos;
    /** A fixed lease, or -1 in watchdog mode. */
    private final long fixedLeaseMillis;

    private final LeaseRenewal renewal;

    private HandOff(int limit, long budgetNanos, long fixedLeaseMillis, LeaseRenewal renewal) {
        this.limit = limit;
        this.budgetNanos = budgetNanos;
        this.fixedLeaseMillis = fixedLeaseMillis;
        this.renewal = renewal;
    }

    /**
     * The hand-off rules of a method's calls, or {@code null} when its locks are not handed on: switched off
     * (a limit or budget of 0), or a kind that does not queue locally or is fenced (see the class comment).
     *
     * @param fixedLeaseMillis a fixed lease, or -1 in watchdog mode
     */
    static HandOff of(LockSettings settings, boolean takesTurns, long fixedLeaseMillis, LeaseRenewal renewal) {
        if (!takesTurns
                || settings.type() == LockType.FENCED
                || settings.handOffLimit() == 0
                || settings.handOffBudget().isZero()) {
            return null;
        }
        return new HandOff(settings.handOffLimit(), settings.handOffBudget().toNanos(), fixedLeaseMillis, renewal);
    }

    /**
     * The hold of lock {@code index} that the finishing {@code call} may hand to the next local caller, or {@code
     * null} when the key must be unlocked in Redis (see the class comment). Called once the call's renewals are
     * answered and none is sent any more.
     */
    Hold holdToHandOn(LockedCall call, int index, long now) {
        if (index == call.inDoubt || call.isLost(index) || call.lastRenewalFailure() != null) {
            return null;
        }
        Hold adopted = call.adoptedHold(index);
        int handOffs = adopted == null ? 0 : adopted.handOffs();
        // A call that took the key from Redis starts the chain when it took its first lock: for a later lock of a
        // multi-key call that is a little early, which only ends the chain sooner.
        long chainStart = adopted == null ? call.acquiredNanos() : adopted.chainStart();
        if (handOffs >= limit || now - chainStart >= budgetNanos) {
            return null;
        }
        long deadline = call.ownDeadline(index);
        if (deadline == 0 || deadline - now < marginNanos()) {
            return null;
        }
        return new Hold(call.ownerOf(index), deadline, chainStart, handOffs + 1);
    }

    /** How far ahead the deadline of a hold handed on must be: a third of the lease (see the class comment). */
    private long marginNanos() {
        long lease = fixedLeaseMillis > 0 ? fixedLeaseMillis : renewal.leaseMillis();
        return TimeUnit.MILLISECONDS.toNanos(lease) / 3;
    }

    /**
     * {@code call} adopted the hold of lock {@code index}: with a fixed lease, it is owed that lease from now, and
     * {@link LeaseRenewal} extends the key's lease (owner-checked) once the inherited deadline gets as close as a
     * renewal would wait for; the deadline moves only when Redis confirms. A holder in a chain of short calls thus
     * costs no extension, and one that runs long still gets its full lease. Called before the renewal watches it.
     */
    void adopted(LockedCall call, int index) {
        if (fixedLeaseMillis > 0) {
            call.owe(index, System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(fixedLeaseMillis));
        }
    }
}
