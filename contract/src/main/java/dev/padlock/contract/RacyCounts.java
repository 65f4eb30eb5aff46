package dev.padlock.contract;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts kept the racy way, one per slot: a plain read, a pause, a plain write. Calls of one slot that overlap lose
 * updates, and are counted as overlaps; so a lock that keeps them apart shows as exact counts and no overlap.
 */
public final class RacyCounts {

    private final int[] counts; // deliberately not atomic: the lock must protect it
    private final AtomicInteger[] inside;
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger maxActive = new AtomicInteger();

    public RacyCounts(int slots) {
        counts = new int[slots];
        inside = new AtomicInteger[slots];
        for (int i = 0; i < slots; i++) {
            inside[i] = new AtomicInteger();
        }
    }

    public void increment(int slot) {
        if (inside[slot].incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
        int read = counts[slot];
        LockSupport.parkNanos(50_000); // widen the race window
        counts[slot] = read + 1;
        active.decrementAndGet();
        inside[slot].decrementAndGet();
    }

    public int[] counts() {
        return counts.clone();
    }

    /** How many calls found another call of their slot inside. */
    public int overlaps() {
        return overlaps.get();
    }

    /** The most calls inside at once, over all slots. */
    public int maxActive() {
        return maxActive.get();
    }
}
