package dev.padlock.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The critical section both sides run: empty, so the lock is all that is measured, except on rows where all
 * threads share one exclusive key, where it counts overlapping holders (must stay 0) as a sanity check that the
 * measured calls really were exclusive.
 */
final class Section implements Runnable {

    private final boolean checked;
    private final AtomicInteger inside = new AtomicInteger();
    private final LongAdder overlaps = new LongAdder();

    Section(Row row) {
        // Own keys never meet, and readers may share: nothing to check there, and no shared counter to contend on.
        this.checked = row.contention() == Row.Contention.ONE_KEY && row.exclusive();
    }

    @Override
    public void run() {
        if (checked) {
            if (inside.incrementAndGet() != 1) {
                overlaps.increment();
            }
            inside.decrementAndGet();
        }
    }

    long overlaps() {
        return overlaps.sum();
    }
}
