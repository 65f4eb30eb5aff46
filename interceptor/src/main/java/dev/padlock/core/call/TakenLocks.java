package dev.padlock.core.call;

import dev.padlock.core.events.LockEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Which of a call's locks are taken, in order, and since when; their fencing tokens; the one taken in doubt, if any;
 * and what the call's meter heard of the acquisition, so that it hears of the release once. The superclass of {@link
 * LockedCall} rather than a field of it, as {@link LeaseBook} is, so that a call stays one allocation.
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

    /**
     * Whether the call's meter heard it acquired its locks, so it also hears of their release, once. Written before
     * the acquisition completes, read by whoever releases after it.
     */
    private volatile boolean metered;

    /**
     * What the call's meter kept of the acquisition's start ({@link LockEvents.Meter#acquiring}), handed back when it
     * ends; written by the caller before the acquisition starts, so whoever ends it sees it.
     */
    private Object acquiring;

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
            acquiredNanos = ticker().getAsLong();
        }
        takenCount = count;
    }

    /** How many locks, in order, are taken. */
    public int takenCount() {
        return takenCount;
    }

    public Duration heldFor() {
        return Duration.ofNanos(ticker().getAsLong() - acquiredNanos);
    }

    /** Worked out when asked, so that a call pays for one clock read, not two. */
    public Instant acquiredAt() {
        return Instant.now().minusNanos(ticker().getAsLong() - acquiredNanos);
    }

    /** The clock the call's times are read on ({@link CallFacts#ticker}). */
    abstract LongSupplier ticker();

    /** The call's meter heard it acquired its locks: it hears of their release too ({@link #holdEnded}). */
    public void acquisitionMetered() {
        metered = true;
    }

    /** The call starts to acquire; {@code token} is what its meter keeps of that start, handed back as it ends. */
    public void startedAcquiring(Object token) {
        acquiring = token;
    }

    /** What the call's meter kept of the acquisition's start; see {@link #startedAcquiring}. */
    public Object acquiringToken() {
        return acquiring;
    }

    /**
     * The call gave up its locks (released them, or left them to lapse): tells its meter how long they were held, if
     * it heard they were acquired. Called once per call, by whoever began the release or the lapse.
     */
    public void holdEnded() {
        if (metered) {
            meter().released(ticker().getAsLong() - acquiredNanos());
        }
    }

    /** What the call tells metrics ({@link CallFacts#meter}); {@code null} when nothing listens. */
    abstract LockEvents.Meter meter();
}
