package dev.padlock.benchmarks;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The work every measured call does while it holds the lock ({@code --body}): nothing by default, so that the lock
 * is all that is measured, or a wait of a fixed length, so that a row looks like a method that does real work
 * under the lock (a database write, a call to another service).
 *
 * <p>The wait parks the thread rather than spinning: a body that stands for I/O leaves the CPU to others while the
 * lock is held, as the real thing would, so Redisson's event loops, Redis and the other callers keep running
 * meanwhile. A spinning body would instead take a core per holder; on the 2-core machines this suite runs on, eight
 * own-key threads spinning at once would measure the scheduler, not the lock, and would add the body to JVM CPU per
 * call. The price of parking is that the OS wakes the thread late (timer slack, 50 µs by default on Linux, plus
 * scheduling): a body is never shorter than asked, and {@link #measuredMicros} says how much longer it is on the
 * machine at hand.
 *
 * @param nanos the length of the body; 0 for an empty body
 */
record Body(long nanos) {

    static final Body EMPTY = new Body(0);

    private static final Pattern LENGTH = Pattern.compile("(\\d+(?:\\.\\d+)?) ?(ns|us|µs|ms|s)");

    Body {
        if (nanos < 0) {
            throw new IllegalArgumentException("a body cannot be shorter than 0, got " + nanos + " ns");
        }
    }

    /**
     * A length with its unit, {@code 1ms}, {@code 250us} (or {@code µs}), {@code 2s}, {@code 500ns}; {@code 0} or
     * {@code none} for an empty body.
     */
    static Body parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("none") || t.equals("0")) {
            return EMPTY;
        }
        Matcher m = LENGTH.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "--body takes a length with its unit (500us, 1ms, 2s) or none, got " + text);
        }
        TimeUnit unit;
        switch (m.group(2)) {
            case "ns":
                unit = TimeUnit.NANOSECONDS;
                break;
            case "ms":
                unit = TimeUnit.MILLISECONDS;
                break;
            case "s":
                unit = TimeUnit.SECONDS;
                break;
            default: // us, µs
                unit = TimeUnit.MICROSECONDS;
        }
        return new Body(Math.round(Double.parseDouble(m.group(1)) * unit.toNanos(1)));
    }

    boolean empty() {
        return nanos == 0;
    }

    /** Parks until at least {@link #nanos} have passed; a wake-up before that (spurious, or early) parks again. */
    void run() {
        if (nanos == 0) {
            return;
        }
        long deadline = System.nanoTime() + nanos;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    /** The mean length of a body on this machine, parked {@code samples} times in a row on this thread, in µs. */
    double measuredMicros(int samples) {
        if (nanos == 0) {
            return 0;
        }
        long start = System.nanoTime();
        for (int i = 0; i < samples; i++) {
            run();
        }
        return (System.nanoTime() - start) / 1e3 / samples;
    }

    /** What the report says of the body: {@code empty}, or its length and how it waits. */
    String describe() {
        if (nanos == 0) {
            return "empty";
        }
        return length() + ", parked (LockSupport.parkNanos, as a thread waiting on I/O would)";
    }

    /** {@code 1 ms}, {@code 250 µs}, {@code 1.5 s}. */
    String length() {
        if (nanos % 1_000_000_000 == 0) {
            return nanos / 1_000_000_000 + " s";
        }
        if (nanos >= 1_000_000_000) {
            return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
        }
        if (nanos % 1_000_000 == 0) {
            return nanos / 1_000_000 + " ms";
        }
        if (nanos >= 1_000_000) {
            return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
        }
        if (nanos % 1_000 == 0) {
            return nanos / 1_000 + " µs";
        }
        return nanos + " ns";
    }
}
