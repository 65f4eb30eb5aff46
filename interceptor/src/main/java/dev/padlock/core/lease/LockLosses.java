package dev.padlock.core.lease;

import dev.padlock.LockContext;
import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.core.call.CallFacts;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.call.WorkStopper;
import dev.padlock.core.redis.Acquisition;

/**
 * A call's lost locks: each loss recorded once (whoever finds it first: a renewal, the deadline, the release, or
 * {@link LockContext#checkHeld}), reported once to the call's engine ({@link CallFacts#reporter}), and turned into
 * what the caller gets. Works from the call alone, so a nested call can report the loss of its enclosing call's hold.
 */
public final class LockLosses {

    private static final System.Logger LOG = System.getLogger(LockLosses.class.getName());

    private LockLosses() {}

    /** Records a loss of lock {@code index}; the event to report, or {@code null} when it was recorded already. */
    static LockLost recordLoss(LockedCall call, int index, LockLost.Detection how, Throwable cause) {
        LockLost loss = new LockLost(call.locks[index].getName(), call.facts.method(), call.heldFor(), how, cause);
        if (!call.markLost(index, loss)) {
            return null;
        }
        if (call.facts.meter() != null) {
            call.facts.meter().lost(how);
            if (how != LockLost.Detection.UNCONFIRMED) {
                call.facts.meter().expired(); // an unanswered release may yet have deleted the key
            }
        }
        return loss;
    }

    /** The loss to report when releasing lock {@code index} failed, or {@code null} if there is none to report. */
    public static LockLost releaseFailed(LockedCall call, int index, Throwable failure) {
        if (call.isInDoubt(index)) {
            return null; // never known to be taken: not held is no loss
        }
        Throwable cause = Acquisition.unwrap(failure);
        // Not held by this owner any more: its lease ran out. Any other failure: Redis could not say.
        return cause instanceof IllegalMonitorStateException
                ? recordLoss(call, index, LockLost.Detection.RELEASE, null)
                : recordLoss(call, index, LockLost.Detection.UNCONFIRMED, cause);
    }

    /**
     * Lock {@code index} was found gone as the call released it (before it could be handed on): the loss to report,
     * or {@code null} when it was recorded already; its turn goes on, as there is nothing to unlock.
     */
    public static LockLost lostAtRelease(LockedCall call, int index) {
        LockLost loss = recordLoss(call, index, LockLost.Detection.RELEASE, null);
        call.turns.passTurn(index);
        return loss;
    }

    /**
     * Lock {@code index} was found lost while the call still runs: its work stopped where it asked for that ({@link
     * WorkStopper}), the loss reported (once, on the event thread) and its local turn passed on, since Redis may grant
     * the key to anyone from now on. Returns the loss recorded for it.
     */
    public static LockLost lostWhileHeld(LockedCall call, int index, LockLost.Detection how, Throwable cause) {
        LockLost loss = recordLoss(call, index, how, cause);
        if (loss == null) {
            return call.lossOf(index);
        }
        WorkStopper stopper = call.stopper();
        if (stopper != null) {
            stopper.stop(); // first: the work stops before anything else is done about the loss
        }
        call.facts.reporter().reportLater(loss);
        call.turns.passTurn(index);
        return loss;
    }

    /** Lock {@code index} passed its deadline: lost, with the last renewal failure as the likely cause. */
    public static LockLost deadlinePassed(LockedCall call, int index) {
        return lostWhileHeld(call, index, LockLost.Detection.DEADLINE, call.lastRenewalFailure());
    }

    /**
     * For {@link LockContext#checkHeld}: the loss of one of the call's locks (or of an enclosing call's hold it
     * shares), reported now if its deadline passed and the timer has not said so yet; {@code null} while every lock
     * is held.
     */
    public static LockLost overdueNow(LockedCall call, long now) {
        for (int i = 0; i < call.locks.length; i++) {
            LockedCall holder = call.sharesHold(i) ? call.host(i) : call;
            int index = call.sharesHold(i) ? call.hostIndex(i) : i;
            LockLost loss = holder.lossOf(index);
            long deadline = holder.deadline(index);
            if (loss == null && deadline != 0 && now - deadline >= 0) {
                loss = deadlinePassed(holder, index);
            }
            if (loss != null) {
                return loss;
            }
        }
        return null;
    }

    /** What the call throws after its method because a lock was lost, if {@code throwOnLoss}; else {@code null}. */
    public static LockLostException lostException(LockedCall call, boolean throwOnLoss) {
        if (!throwOnLoss) {
            return null;
        }
        LockLost loss = call.firstLoss();
        return loss == null ? null : new LockLostException(loss);
    }

    /** A renewal could not reach Redis; it is tried again until the lock's deadline. */
    public static void renewalFailed(LockedCall call, String lockKey, Throwable failure, long retryMillis) {
        call.facts.reporter().renewalFailed();
        LOG.log(
                System.Logger.Level.WARNING,
                () -> "Lock " + lockKey + " for " + call.facts.method() + " could not be renewed (" + failure
                        + "); Padlock retries every " + retryMillis + " ms, and reports the lock lost if no renewal"
                        + " is confirmed before its lease runs out.");
    }
}
