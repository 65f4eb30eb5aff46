package dev.padlock.core.call;

import dev.padlock.LockLost;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * What one call knows of each of its locks' leases: the deadline by which it must consider the lock lost, the loss
 * recorded for it, and for a lock handed to it under a fixed lease, the lease it is still owed. Guarded by this
 * object's monitor, which is also its {@link LeaseBook}'s: the superclass of that book (and so of {@link LockedCall})
 * rather than a field, so that a call remains one allocation, guarded by one lock (no order to keep between two). The
 * renewal reads it to decide when to renew, extend or report a loss; the rest of the call's life is the book's.
 */
public abstract class LeaseDeadlines {

    /**
     * Per lock, the {@link System#nanoTime} by which this call must consider it lost: the send time of the last
     * acquisition or renewal Redis confirmed, plus the lease, minus {@link #driftMarginNanos}. 0 until taken.
     */
    private final long[] deadlines;

    /** Which locks were found lost, and how; allocated on the first loss. */
    private LockLost[] lost;

    private LockLost firstLoss;

    LeaseDeadlines(int lockCount) {
        this.deadlines = new long[lockCount];
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
     * The server holding lock {@code index} stepped its clock forward by {@code nanos}: the lease it measures ends that
     * much earlier, and so does the deadline. Returns the new deadline; 0 when the lock is not taken, or lost.
     */
    public final synchronized long shortenDeadline(int index, long nanos) {
        if (deadlines[index] == 0 || (lost != null && lost[index] != null)) {
            return 0;
        }
        deadlines[index] -= nanos;
        return deadlines[index];
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
}
