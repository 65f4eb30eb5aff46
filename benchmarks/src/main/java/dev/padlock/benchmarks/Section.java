package dev.padlock.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The critical section both sides run: the {@link Body} of {@code --body} (empty by default, so the lock is all that
 * is measured), and on rows where all threads share one exclusive key a count of overlapping holders (must stay 0)
 * around it, as a sanity check that the measured calls really were exclusive for as long as they held the lock.
 */
final class Section implements Runnable {

    private final boolean checked;
    private final Body body;
    private final AtomicInteger inside = new AtomicInteger();
    private final LongAdder overlaps = new LongAdder();

    Section(Row row, Body body) {
        this.body = body;
        // Own keys never meet, and readers may share: nothing to check there, and no shared counter to contend on.
        this.checked = row.contention() == Row.Contention.ONE_KEY && row.exclusive();
    }

    @Override
    public void run() {
        if (checked) {
            if (inside.incrementAndGet() != 1) {
                overlaps.increment();
            }
            body.run();
            inside.decrementAndGet();
        } else {
            body.run();
        }
    }

    long overlaps() {
        return overlaps.sum();
    }
}
