package dev.padlock.core.call;

import java.time.Duration;
import java.time.Instant;

/**
 * Which of a call's locks are taken, in order, and since when; their fencing tokens; and the one taken in doubt, if
 * any. The superclass of {@link LockedCall} rather than a field of it, as {@link LeaseBook} is, so that a call stays
 * one allocation.
 */
public abstract class TakenLocks extends LeaseBook {

    /** Fencing tokens by lock index, for {@code FENCED} locks only; else {@code null}. */
    private final long[] tokens;

    /** How many of {@code locks}, in order, are taken: only those are renewed and released. */
    private volatile int takenCount;

    private long acquiredNanos;

    /**
     * The lock whose acquisition got no answer (a timeout while the script may have run), released like a taken one
     * but not reported lost when found not held; -1 when none. See {@link #takenInDoubt}.
     */
    private volatile int inDoubt = -1;

    TakenLocks(int lockCount, boolean fenced) {
        super(lockCount);
        this.tokens = fenced ? new long[lockCount] : null;
    }

    /** When the call took its first lock ({@link System#nanoTime}). */
    public long acquiredNanos() {
        return acquiredNanos;
    }

    /**
     * Lock {@code index}'s acquisition got no answer, so it may have been taken (a timeout while the script may have
     * run): it counts as taken, so that the release undoes it with an owner-checked unlock, but it is never reported
     * lost when found not held, nor kept for a hold-at-least, nor handed on.
     */
    public void takenInDoubt(int index) {
        inDoubt = index;
        markTaken(index + 1);
    }

    /** Whether the call's locks give fencing tokens ({@code FENCED}). */
    public boolean isFenced() {
        return tokens != null;
    }

    /** The fencing token Redis gave lock {@code index} (or the enclosing call's, for a shared hold); 0 before. */
    public long token(int index) {
        return tokens[index];
    }

    /** Redis gave lock {@code index} fencing token {@code token}, as it granted it. */
    public void recordToken(int index, long token) {
        tokens[index] = token;
    }

    /** Whether lock {@code index} was taken in doubt ({@link #takenInDoubt}). */
    public boolean isInDoubt(int index) {
        return index == inDoubt;
    }

    /** The first {@code count} locks are held from now on. */
    public void markTaken(int count) {
        if (count == 1) {
            acquiredNanos = System.nanoTime();
        }
        takenCount = count;
    }

    /** How many locks, in order, are taken. */
    public int takenCount() {
        return takenCount;
    }

    public Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredNanos);
    }

    /** Worked out when asked, so that a call pays for one clock read, not two. */
    public Instant acquiredAt() {
        return Instant.now().minusNanos(System.nanoTime() - acquiredNanos);
    }
}
