package dev.padlock.core;

import dev.padlock.LockContext;
import dev.padlock.LockLost;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    /** Whether a renewal tick has seen it; written and read by the tick thread only. */
    boolean seenByTick;

    /** Which locks were found lost; allocated on the first loss. Guarded by this. */
    private boolean[] lost;

    private LockLost firstLoss;
    /** When each lock was last known held, for renewals that keep failing; allocated by the first renewal. */
    private long[] confirmedNanos;

    private boolean failureReported;

    /** Guarded by this: whether the release has begun (a call is released once), and the body's phase. */
    private boolean releasing;

    private boolean started;
    private boolean abandoned;

    /**
     * For locks that take {@link LocalTurns}: which of them this call holds the turn for (guarded by this), and
     * which an enclosing call of the same owner holds already, so that this one re-enters without a turn. Both
     * {@code null} otherwise.
     */
    private final boolean[] turns;

    private final boolean[] reentered;

    /** The call this one is nested in on the thread running its body, while bound; see {@link #bind}. */
    private HeldLocks enclosing;

    HeldLocks(LockOperation operation, RLock[] locks, long owner, boolean fenced, boolean takesTurns) {
        this.operation = operation;
        this.locks = locks;
        this.owner = owner;
        this.tokens = fenced ? new long[locks.length] : null;
        this.turns = takesTurns ? new boolean[locks.length] : null;
        this.reentered = takesTurns ? reenteredLocks(locks, owner) : null;
    }

    /**
     * Which of {@code locks} a call enclosing this one on the current thread holds for the same owner; {@code null}
     * when none (the common case: no enclosing call).
     */
    private static boolean[] reenteredLocks(RLock[] locks, long owner) {
        boolean[] reentered = null;
        for (HeldLocks call = CURRENT.get(); call != null; call = call.enclosing) {
            if (call.owner != owner) {
                continue;
            }
            for (int i = 0; i < locks.length; i++) {
                for (int j = 0; j < call.taken; j++) {
                    if (call.locks[j].getName().equals(locks[i].getName())) {
                        if (reentered == null) {
                            reentered = new boolean[locks.length];
                        }
                        reentered[i] = true;
                    }
                }
            }
        }
        return reentered;
    }

    /** Whether lock {@code index} is taken without a {@link LocalTurns turn}. */
    boolean needsNoTurn(int index) {
        return turns == null || (reentered != null && reentered[index]);
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
            lost = new boolean[locks.length];
        }
        if (lost[index]) {
            return false;
        }
        lost[index] = true;
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
        return lost != null && lost[index];
    }

    /** A renewal of lock {@code index} succeeded. */
    synchronized void confirmed(int index) {
        confirmations()[index] = System.nanoTime();
    }

    /** How long lock {@code index} has gone without a successful renewal (or since it was taken). */
    synchronized long unconfirmedMillis(int index) {
        return (System.nanoTime() - confirmations()[index]) / 1_000_000;
    }

    private long[] confirmations() {
        if (confirmedNanos == null) {
            confirmedNanos = new long[locks.length];
            java.util.Arrays.fill(confirmedNanos, acquiredNanos);
        }
        return confirmedNanos;
    }

    /** True for the first of possibly several attempts to release the call; the others must not release again. */
    synchronized boolean beginRelease() {
        boolean first = !releasing;
        releasing = true;
        return first;
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
