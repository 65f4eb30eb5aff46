package dev.padlock.core.call;

import dev.padlock.LockLost;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What one call knows of its leases: per lock, the deadline by which it must consider the lock lost and the loss
 * recorded for it; the renewals sent and not yet answered; and the call's {@link CallPhase}, moved only here and
 * checked at each move. Guarded by this object's monitor unless said otherwise.
 *
 * <p>The superclass of {@link LockedCall} rather than a field of it, so that a call remains one allocation; that is
 * also why it is long (about 400 lines): it is the lease half of that one object.
 */
public abstract class LeaseBook {

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

    /**
     * Per lock, the {@link System#nanoTime} by which this call must consider it lost: the send time of the last
     * acquisition or renewal Redis confirmed, plus the lease, minus {@link #driftMarginNanos}. 0 until taken.
     */
    private final long[] deadlines;

    /** Which locks were found lost, and how; allocated on the first loss. */
    private LockLost[] lost;

    private LockLost firstLoss;
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
        this.deadlines = new long[lockCount];
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
        return true;
    }

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
    final synchronized boolean sharerEnded() {
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

    /** Records a loss; true the first time for this lock, so each loss is reported once. */
    public final synchronized boolean markLost(int index, LockLost loss) {
        if (lost == null) {
            lost = new LockLost[deadlines.length];
        }
        if (lost[index] != null) {
            return false;
        }
        lost[index] = loss;
        if (firstLoss == null) {
            firstLoss = loss;
        }
        return true;
    }

    /** The first loss recorded for the call, or {@code null}. */
    public final synchronized LockLost firstLoss() {
        return firstLoss;
    }

    public final synchronized boolean isLost(int index) {
        return lost != null && lost[index] != null;
    }

    /** The loss recorded for lock {@code index}, or {@code null}. */
    public final synchronized LockLost lossOf(int index) {
        return lost == null ? null : lost[index];
    }

    /**
     * Redis confirmed an acquisition or renewal of lock {@code index} that was sent at {@code sentNanos} with a lease
     * of {@code leaseMillis}: the lock is ours until at least then plus the lease, by Redis's clock, since Redis set
     * the expiry no earlier than it received the command. A late answer never moves the deadline back, nor revives a
     * lock reported lost.
     */
    public final synchronized void confirmed(int index, long sentNanos, long leaseMillis) {
        if (lost != null && lost[index] != null) {
            return;
        }
        long leaseNanos = leaseMillis * 1_000_000;
        long deadline = sentNanos + leaseNanos - driftMarginNanos(leaseNanos);
        if (deadlines[index] == 0 || deadline - deadlines[index] > 0) {
            deadlines[index] = deadline;
        }
    }

    /**
     * Lock {@code index} was handed to this call by one that held it until {@code deadline}, which this call inherits
     * as its own: nothing newer was confirmed for the key.
     */
    final synchronized void inherited(int index, long deadline) {
        deadlines[index] = deadline;
    }

    /**
     * For locks handed to this call under a fixed lease ({@link HandOff}): by index, until when the call is owed that
     * lease ({@link System#nanoTime}: from its adoption), or 0; {@code null} until the first such lock.
     */
    private long[] owedUntil;

    /** The fixed lease owed, in nanoseconds; with {@link #owedUntil}. */
    private long owedLeaseNanos;

    /**
     * Lock {@code index}, handed to this call under a fixed lease of {@code leaseNanos}, is owed that lease from now
     * ({@code now}): its inherited deadline is extended when needed, see {@link #extensionDueAt}.
     */
    public final synchronized void owe(int index, long now, long leaseNanos) {
        if (owedUntil == null) {
            owedUntil = new long[deadlines.length];
        }
        owedUntil[index] = now + leaseNanos;
        owedLeaseNanos = leaseNanos;
    }

    /**
     * When lock {@code index}'s owed lease must be extended ({@link System#nanoTime}), or {@code Long.MAX_VALUE}: as a
     * watchdog renewal would, once two thirds of the lease or less are left before the deadline, and only while an
     * extension would move the deadline by more than the drift margins. A short call in a chain thus costs no
     * extension: it ends long before the inherited deadline is that close.
     */
    public final synchronized long extensionDueAt(int index) {
        if (owedUntil == null || owedUntil[index] == 0 || (lost != null && lost[index] != null)) {
            return Long.MAX_VALUE;
        }
        if (owedUntil[index] - deadlines[index] <= 2 * driftMarginNanos(owedLeaseNanos)) {
            return Long.MAX_VALUE; // extended already, as far as it is owed
        }
        return deadlines[index] - 2 * (owedLeaseNanos / 3);
    }

    /** The earliest {@link #extensionDueAt} among the call's locks; {@code Long.MAX_VALUE} if none. */
    public final synchronized long earliestExtensionDue() {
        if (owedUntil == null) {
            return Long.MAX_VALUE;
        }
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < deadlines.length; i++) {
            long due = extensionDueAt(i);
            if (due - earliest < 0) {
                earliest = due;
            }
        }
        return earliest;
    }

    /** The lease to extend lock {@code index} with at {@code now}, so that it ends when it is owed until (ms, ≥ 1). */
    public final synchronized long owedMillis(int index, long now) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(owedUntil[index] - now));
    }

    /** The fixed lease owed to locks handed to this call, in milliseconds; 0 if none. */
    public final synchronized long owedLeaseMillis() {
        return TimeUnit.NANOSECONDS.toMillis(owedLeaseNanos);
    }

    /**
     * How much earlier than the lease's end the holder gives up its lock: Redis measures the lease with its clock and
     * Padlock with this JVM's monotonic clock, whose rates may differ (NTP slews a clock by at most 0.05 %; 1 % leaves
     * room for virtual machines whose clocks stall and catch up), and reporting the loss takes a timer and a thread
     * hand-off on a possibly busy machine (20 ms). A 30 s lease is thus given up 320 ms early, a 1 s one 30 ms early.
     */
    public static long driftMarginNanos(long leaseNanos) {
        return leaseNanos / 100 + 20_000_000;
    }

    /** The deadline of lock {@code index} as this call confirmed it ({@link System#nanoTime}); 0 when not taken. */
    final synchronized long ownDeadline(int index) {
        return deadlines[index];
    }

    /** The earliest deadline among the locks this call took itself and has not lost; {@code Long.MAX_VALUE} if none. */
    public final synchronized long earliestDeadline() {
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < deadlines.length; i++) {
            if (deadlines[i] != 0 && (lost == null || lost[i] == null) && deadlines[i] - earliest < 0) {
                earliest = deadlines[i];
            }
        }
        return earliest;
    }

    /**
     * The locks of this call whose deadline passed by {@code now} without being found lost yet; {@code null} when
     * none. The caller reports them lost.
     */
    public final synchronized int[] overdue(long now) {
        int[] overdue = null;
        int count = 0;
        for (int i = 0; i < deadlines.length; i++) {
            if (deadlines[i] != 0 && (lost == null || lost[i] == null) && now - deadlines[i] >= 0) {
                if (overdue == null) {
                    overdue = new int[deadlines.length];
                }
                overdue[count++] = i;
            }
        }
        return overdue == null ? null : Arrays.copyOf(overdue, count);
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
