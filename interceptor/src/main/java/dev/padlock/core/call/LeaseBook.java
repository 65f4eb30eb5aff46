package dev.padlock.core.call;

import java.util.concurrent.CompletableFuture;

/**
 * One call's life as its leases see it: its {@link CallPhase}, moved only here and checked at each move; the renewals
 * and checks sent and not yet answered; and the calls sharing its holds. A release waits for both, so that nothing
 * lands after the unlock and no shared hold ends under a sharer. What it knows of each lock (deadline, loss, owed
 * lease) is its superclass's, {@link LeaseDeadlines}. Guarded by this object's monitor, the same for both, unless
 * said otherwise.
 *
 * <p>The superclass of {@link LockedCall} rather than a field of it, so that a call remains one allocation.
 */
public abstract class LeaseBook extends LeaseDeadlines {

    private static final System.Logger LOG = System.getLogger(LeaseBook.class.getName());

    /**
     * Whether an illegal move of a call's phase throws ({@link #moveTo}): where assertions are on, as in Padlock's
     * tests, so that a path nobody meant fails loudly there; elsewhere it is logged and not made, so that a call whose
     * release began is never taken for a running one again.
     */
    private static final boolean STRICT_PHASES = LeaseBook.class.desiredAssertionStatus();

    private static final CompletableFuture<Void> NOTHING_IN_FLIGHT = CompletableFuture.completedFuture(null);

    /** What {@link #beginRelease} answers when the release must wait for the calls sharing a hold; never completes. */
    private static final CompletableFuture<Void> WAITS_FOR_SHARERS = new CompletableFuture<>();

    /** Written under this, by {@link #moveTo} only. */
    private volatile CallPhase phase = CallPhase.ACQUIRING;

    /**
     * Before when no renewal is sent again ({@link System#nanoTime}): one sent is awaited until then; 0 before the
     * first. Used by the renewal's tick thread only.
     */
    private long retryAt;

    private boolean renewalFailureSeen;
    /** The last failure of a renewal, the cause a deadline loss is reported with. */
    private Throwable lastRenewalFailure;

    /** Renewals sent and not yet answered, and what a release waiting for them completes. */
    private int renewalsInFlight;

    private CompletableFuture<Void> renewalsAnswered;

    /**
     * How many holds of this call other calls share and have not released yet (a nested call, or a later call of the
     * caller's transaction); a release asked for meanwhile waits for the last of them ({@link #releaseDue}), and its
     * end completes {@link #releasedAfterSharers}.
     */
    private int sharers;

    private boolean releaseDue;
    private CompletableFuture<Void> releasedAfterSharers;

    LeaseBook(int lockCount) {
        super(lockCount);
    }

    /** Whether a renewal sent is still awaited at {@code now} (see {@link #retryAfter}). Tick thread only. */
    public final boolean retryPending(long now) {
        return retryAt != 0 && now - retryAt < 0;
    }

    /** When a renewal may be sent again ({@link System#nanoTime}), 0 if none was sent. Tick thread only. */
    public final long retryAt() {
        return retryAt;
    }

    /** A renewal was sent: none is sent again before {@code at} ({@link System#nanoTime}). Tick thread only. */
    public final void retryAfter(long at) {
        retryAt = at;
    }

    /** Where the call is in its life. Not synchronized. */
    public final CallPhase phase() {
        return phase;
    }

    /**
     * Moves the call to {@code next} when its phase allows it ({@link CallPhase#mayBecome}); called under this. False,
     * the phase unchanged, for a move it does not allow, which is a Padlock bug: logged, or thrown in tests.
     *
     * @throws IllegalStateException where assertions are on, for a move the phase does not allow
     */
    final boolean moveTo(CallPhase next) {
        CallPhase current = phase;
        if (!current.mayBecome(next)) {
            String message = "Padlock bug: a call moved from " + current + " to " + next + " ("
                    + Thread.currentThread().getName() + "); please report it";
            if (STRICT_PHASES) {
                throw new IllegalStateException(message);
            }
            LOG.log(System.Logger.Level.WARNING, message);
            return false;
        }
        phase = next;
        if (next == CallPhase.RELEASING || next == CallPhase.LAPSING || next == CallPhase.DEFERRED) {
            workEnded();
        }
        return true;
    }

    /** The call's work ended: its release or lapse began, or its release was deferred. Called under this. */
    void workEnded() {}

    /** Whether the call's release has begun: nothing is renewed or reported for it any more. Not synchronized. */
    public final boolean isReleased() {
        CallPhase now = phase;
        return now == CallPhase.RELEASING || now == CallPhase.DONE;
    }

    /** Whether the call is left to lapse ({@link #beginLapse}). Not synchronized. */
    public final boolean isLapsing() {
        return phase == CallPhase.LAPSING;
    }

    /** Whether the call still holds or takes its locks: neither released nor left to lapse. Called under this. */
    final boolean holdsLocks() {
        return phase.beforeRelease();
    }

    /** The call's release was answered, or reported unconfirmed: it is {@link CallPhase#DONE}. */
    public final synchronized void releaseEnded() {
        moveTo(CallPhase.DONE);
    }

    /**
     * Begins the release: {@code null} when the call was released or left to lapse already (a call ends once); else
     * completes when every renewal sent for the call has been answered, so the release reaches Redis after them (at
     * once, usually). While another call still shares one of this call's holds, the release waits for the last of
     * them to end instead ({@link #waitsForSharers}): the locks stay held and renewed, and that call's release
     * releases this one ({@link #sharerEnded}).
     */
    public final synchronized CompletableFuture<Void> beginRelease() {
        if (!holdsLocks()) {
            return null;
        }
        if (sharers > 0) {
            releaseDue = true;
            if (releasedAfterSharers == null) {
                releasedAfterSharers = new CompletableFuture<>();
            }
            return WAITS_FOR_SHARERS;
        }
        moveTo(CallPhase.RELEASING);
        return inFlightAnswered();
    }

    /**
     * Completes once every renewal and check sent for the call so far has been answered (at once when none is in
     * flight), so that what they found is recorded: a lock they found lost is then known.
     */
    public final synchronized CompletableFuture<Void> inFlightAnswered() {
        if (renewalsInFlight == 0) {
            return NOTHING_IN_FLIGHT;
        }
        if (renewalsAnswered == null) {
            renewalsAnswered = new CompletableFuture<>();
        }
        return renewalsAnswered;
    }

    /** Whether {@code begun}, what {@link #beginRelease} answered, says that the release waits for the call's sharers. */
    public static boolean waitsForSharers(CompletableFuture<Void> begun) {
        return begun == WAITS_FOR_SHARERS;
    }

    /** Completes when a release that waited for the call's sharers has ended; {@code null} when none waited. */
    public final synchronized CompletableFuture<Void> releasedAfterSharers() {
        return releasedAfterSharers;
    }

    /**
     * Another call shares a hold of this one from now on, until it ends ({@link #sharerEnded}); false when this call's
     * release has begun already (there is no hold to share any more).
     */
    final synchronized boolean admitSharer() {
        if (!holdsLocks()) {
            return false;
        }
        sharers++;
        return true;
    }

    /** A call sharing a hold of this one ended: true when this call's release waited for it and is due now. */
    public final synchronized boolean sharerEnded() {
        if (--sharers > 0 || !releaseDue) {
            return false;
        }
        releaseDue = false;
        return true;
    }

    /** Leaves the call's locks to lapse instead of releasing them; false when it was released or lapsing already. */
    public final synchronized boolean beginLapse() {
        return holdsLocks() && moveTo(CallPhase.LAPSING);
    }

    /**
     * A renewal of the call is about to be sent; false when the call has ended, so it must not be: a renewal arriving
     * after the release could otherwise extend the lease of this owner's next call on the same key.
     */
    public final synchronized boolean beginRenewal() {
        if (!holdsLocks()) {
            return false;
        }
        renewalsInFlight++;
        return true;
    }

    /**
     * A check that the call still holds a lock ({@link HandOff}) is about to be sent: counted like a renewal in flight,
     * so that a release waits for its answer (an unlock overtaking it on another connection would make it say "not
     * held"). Counted also when the call has ended already, for the same reason: answered with {@link
     * #renewalAnswered}.
     */
    public final synchronized void beginCheck() {
        renewalsInFlight++;
    }

    /** A renewal was answered (or failed): a release waiting for it may go on. */
    public final void renewalAnswered(Throwable failure) {
        CompletableFuture<Void> waiting = null;
        synchronized (this) {
            if (failure != null) {
                lastRenewalFailure = failure;
            }
            if (--renewalsInFlight == 0 && renewalsAnswered != null) {
                waiting = renewalsAnswered;
                renewalsAnswered = null;
            }
        }
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    public final synchronized Throwable lastRenewalFailure() {
        return lastRenewalFailure;
    }

    /** True for the first failed renewal of the call only, so a Redis outage is not logged per tick. */
    public final synchronized boolean firstRenewalFailure() {
        boolean first = !renewalFailureSeen;
        renewalFailureSeen = true;
        return first;
    }
}
