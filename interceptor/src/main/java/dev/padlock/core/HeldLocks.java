package dev.padlock.core;

import dev.padlock.LockContext;
import dev.padlock.LockLost;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.redisson.api.RLock;

/**
 * The locks of one {@code @Locked} call while it runs: what is taken, since when, its fencing tokens, and which
 * locks were found lost. Renewed by {@link LeaseRenewal} in watchdog mode; bound to the thread running the body
 * so {@link LockContext} can describe it.
 */
final class HeldLocks {

    private static final ThreadLocal<HeldLocks> CURRENT = new ThreadLocal<>();

    final LockOperation operation;
    final RLock[] locks;
    final long owner;
    /** Fencing tokens by lock index, for {@code FENCED} locks only; else {@code null}. */
    final long[] tokens;

    /** How many of {@code locks}, in order, are taken: only those are renewed and released. */
    private volatile int taken;

    private long acquiredNanos;

    /** Set when the locks are about to be released: renewals in flight then say nothing. */
    volatile boolean stopped;
    /** When the next renewal may be sent ({@link System#nanoTime}); 0 before the first. Used by the tick thread only. */
    long nextRenewalNanos;
    /**
     * The lock whose acquisition got no answer (a timeout while the script may have run), released like a taken one
     * but not reported lost when found not held; -1 when none.
     */
    volatile int inDoubt = -1;

    /** Which locks were found lost, and how; allocated on the first loss. Guarded by this. */
    private LockLost[] lost;

    private LockLost firstLoss;
    /**
     * Per lock, the {@link System#nanoTime} by which this call must consider it lost: the send time of the last
     * acquisition or renewal Redis confirmed, plus the lease, minus {@link #driftMarginNanos}. 0 until taken. Guarded
     * by this.
     */
    private final long[] deadlines;

    private boolean failureReported;
    /** The last failure of a renewal, the cause a deadline loss is reported with; guarded by this. */
    private Throwable lastRenewalFailure;

    /** Renewals sent and not yet answered, and what a release waiting for them completes; guarded by this. */
    private int renewalsInFlight;

    private CompletableFuture<Void> renewalsAnswered;
    /**
     * Set when the call's work may still run but its end cannot be observed (a cancelled result): the locks are not
     * released but left to lapse with their lease, and their turns pass on at their deadlines.
     */
    volatile boolean lapsing;
    /** Whether {@link LeaseRenewal} watches this call's deadlines; written by the thread that acquires. */
    boolean watched;

    /** Guarded by this: whether the release has begun (a call is released once), and the body's phase. */
    private boolean releasing;

    private boolean started;
    private boolean abandoned;

    /**
     * For locks that take {@link LocalTurns}: which of them this call holds the turn for (guarded by this);
     * {@code null} otherwise.
     */
    private final boolean[] turns;

    /**
     * By lock index, the enclosing call on this thread that holds the same key already, or {@code null}: this call
     * shares that hold instead of asking Redis (see {@link #sharedHolds}). {@code null} when there is none, the common
     * case.
     */
    private final HeldLocks[] hosts;

    private final int[] hostIndexes;

    /** The call this one is nested in on the thread running its body, while bound; see {@link #bind}. */
    private HeldLocks enclosing;

    HeldLocks(LockOperation operation, RLock[] locks, long owner, boolean fenced, boolean takesTurns) {
        this.operation = operation;
        this.locks = locks;
        this.owner = owner;
        this.tokens = fenced ? new long[locks.length] : null;
        this.turns = takesTurns ? new boolean[locks.length] : null;
        this.deadlines = new long[locks.length];
        HeldLocks[] found = null;
        int[] indexes = null;
        for (HeldLocks call = CURRENT.get(); call != null; call = call.enclosing) {
            if (call.operation.engine != operation.engine) {
                continue; // another application's call, run on this thread: its holds are not this one's
            }
            for (int i = 0; i < locks.length; i++) {
                int j = call.indexOf(locks[i].getName());
                if (j >= 0 && (found == null || found[i] == null)) {
                    if (found == null) {
                        found = new HeldLocks[locks.length];
                        indexes = new int[locks.length];
                    }
                    found[i] = call;
                    indexes[i] = j;
                }
            }
        }
        this.hosts = found;
        this.hostIndexes = indexes;
    }

    /** The index of the lock on {@code key} among those this call has taken, or -1. */
    private int indexOf(String key) {
        int count = taken;
        for (int j = 0; j < count; j++) {
            if (locks[j].getName().equals(key)) {
                return j;
            }
        }
        return -1;
    }

    /**
     * Whether an enclosing call on this thread holds some of this call's keys. Such a nested call shares the
     * enclosing hold for those keys: it neither asks Redis nor queues, so it can neither shorten the enclosing lease
     * (Redisson's re-entry would set the nested lease on the key) nor take a second fencing token, nor wait against
     * its own caller when the two have different owners (a stage call around a blocking one). It is released with the
     * enclosing call, not before.
     */
    boolean sharesHolds() {
        return hosts != null;
    }

    /** Whether lock {@code index} is held by an enclosing call, whose hold this call shares. */
    boolean sharesHold(int index) {
        return hosts != null && hosts[index] != null;
    }

    /** The enclosing call whose hold of lock {@code index} this call shares; see {@link #sharesHold}. */
    HeldLocks host(int index) {
        return hosts[index];
    }

    int hostIndex(int index) {
        return hostIndexes[index];
    }

    /** Whether lock {@code index} is taken without a {@link LocalTurns turn}. */
    boolean needsNoTurn(int index) {
        return turns == null || sharesHold(index);
    }

    /**
     * The turn for lock {@code index} was granted to this call; false when the call's release has begun meanwhile,
     * so the caller must pass the turn on itself.
     */
    synchronized boolean tookTurn(int index) {
        if (releasing) {
            return false;
        }
        turns[index] = true;
        return true;
    }

    /** True once for each lock whose turn this call holds: the caller then passes it on. */
    synchronized boolean giveUpTurn(int index) {
        if (turns == null || !turns[index]) {
            return false;
        }
        turns[index] = false;
        return true;
    }

    /** The first {@code count} locks are held from now on. */
    void taken(int count) {
        if (count == 1) {
            acquiredNanos = System.nanoTime();
        }
        taken = count;
    }

    int taken() {
        return taken;
    }

    Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredNanos);
    }

    /** Records a loss; true the first time for this lock, so each loss is reported once. */
    synchronized boolean markLost(int index, LockLost loss) {
        if (lost == null) {
            lost = new LockLost[locks.length];
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
    synchronized LockLost firstLoss() {
        return firstLoss;
    }

    synchronized boolean isLost(int index) {
        return lost != null && lost[index] != null;
    }

    /** The loss recorded for lock {@code index}, or {@code null}. */
    synchronized LockLost lossOf(int index) {
        return lost == null ? null : lost[index];
    }

    /**
     * Redis confirmed an acquisition or renewal of lock {@code index} that was sent at {@code sentNanos} with a lease
     * of {@code leaseMillis}: the lock is ours until at least then plus the lease, by Redis's clock, since Redis set
     * the expiry no earlier than it received the command. A late answer never moves the deadline back, nor revives a
     * lock reported lost.
     */
    synchronized void confirmed(int index, long sentNanos, long leaseMillis) {
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
     * How much earlier than the lease's end the holder gives up its lock: Redis measures the lease with its clock and
     * Padlock with this JVM's monotonic clock, whose rates may differ (NTP slews a clock by at most 0.05 %; 1 % leaves
     * room for virtual machines whose clocks stall and catch up), and reporting the loss takes a timer and a thread
     * hand-off on a possibly busy machine (20 ms). A 30 s lease is thus given up 320 ms early, a 1 s one 30 ms early.
     */
    static long driftMarginNanos(long leaseNanos) {
        return leaseNanos / 100 + 20_000_000;
    }

    /** The deadline of lock {@code index} ({@link System#nanoTime}); 0 when not taken yet. */
    synchronized long deadline(int index) {
        if (sharesHold(index)) {
            return hosts[index].deadline(hostIndexes[index]);
        }
        return deadlines[index];
    }

    /** The earliest deadline among the locks this call took itself and has not lost; {@code Long.MAX_VALUE} if none. */
    synchronized long earliestDeadline() {
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
    synchronized int[] overdue(long now) {
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
        return overdue == null ? null : java.util.Arrays.copyOf(overdue, count);
    }

    /**
     * A renewal of the call is about to be sent; false when the release has begun, so it must not be: a renewal
     * arriving after the release could otherwise extend the lease of this owner's next call on the same key.
     */
    synchronized boolean beginRenewal() {
        if (releasing) {
            return false;
        }
        renewalsInFlight++;
        return true;
    }

    /** A renewal was answered (or failed): a release waiting for it may go on. */
    void renewalAnswered(Throwable failure) {
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

    synchronized Throwable lastRenewalFailure() {
        return lastRenewalFailure;
    }

    private static final CompletableFuture<Void> NOTHING_IN_FLIGHT = CompletableFuture.completedFuture(null);

    /**
     * Begins the release: {@code null} when it had begun already (a call is released once); else completes when every
     * renewal sent for the call has been answered, so the release reaches Redis after them (at once, usually).
     */
    synchronized CompletableFuture<Void> beginRelease() {
        if (releasing) {
            return null;
        }
        releasing = true;
        if (renewalsInFlight == 0) {
            return NOTHING_IN_FLIGHT;
        }
        renewalsAnswered = new CompletableFuture<>();
        return renewalsAnswered;
    }

    /** The method body is about to run; false when the call was abandoned (cancelled) first. */
    synchronized boolean start() {
        if (abandoned) {
            return false;
        }
        started = true;
        return true;
    }

    /** The caller cancelled before the body ran; true when it had not started, so nothing else will release. */
    synchronized boolean abandon() {
        if (started) {
            return false;
        }
        abandoned = true;
        return true;
    }

    /** True for the first failed renewal of the call only, so a Redis outage is not logged per tick. */
    synchronized boolean firstFailure() {
        boolean first = !failureReported;
        failureReported = true;
        return first;
    }

    /** Makes this the current thread's call until {@link #unbind}; returns the call it hides (nested calls). */
    HeldLocks bind() {
        HeldLocks outer = CURRENT.get();
        enclosing = outer;
        CURRENT.set(this);
        return outer;
    }

    static void unbind(HeldLocks outer) {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }

    /** The call whose body runs on this thread, or {@code null}. */
    static HeldLocks current() {
        return CURRENT.get();
    }

    List<String> keys() {
        List<String> keys = new ArrayList<>(locks.length);
        for (RLock lock : locks) {
            keys.add(lock.getName());
        }
        return keys;
    }

    /** Worked out when asked, so that a call pays for one clock read, not two. */
    Instant acquiredAt() {
        return Instant.now().minusNanos(System.nanoTime() - acquiredNanos);
    }
}
