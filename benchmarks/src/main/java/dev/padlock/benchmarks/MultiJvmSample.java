package dev.padlock.benchmarks;

import dev.padlock.testing.CommandStats;
import java.util.List;
import org.HdrHistogram.Histogram;

/** One side's window in a multi-JVM row: what each JVM measured, and what Redis ran meanwhile for all of them. */
record MultiJvmSample(List<JvmWindow> jvms, CommandStats commands) {

    long ops() {
        long ops = 0;
        for (JvmWindow w : jvms) {
            ops += w.ops();
        }
        return ops;
    }

    /** Each JVM's calls over its own window, summed: the windows start together and last as long. */
    double opsPerSecond() {
        double rate = 0;
        for (JvmWindow w : jvms) {
            rate += w.opsPerSecond();
        }
        return rate;
    }

    /** The share of the acquisitions the JVM with the fewest of them got (1/N is an even split). */
    double smallestShare() {
        long smallest = Long.MAX_VALUE;
        for (JvmWindow w : jvms) {
            smallest = Math.min(smallest, w.ops());
        }
        return ops() == 0 ? 0 : (double) smallest / ops();
    }

    /** Every call of every JVM. */
    Histogram latencyNanos() {
        Histogram all = new Histogram(JvmWindow.HIGHEST_NANOS, 3);
        for (JvmWindow w : jvms) {
            all.add(w.latencyNanos());
        }
        return all;
    }

    double p50Micros() {
        return latencyNanos().getValueAtPercentile(50) / 1e3;
    }

    double p99Micros() {
        return latencyNanos().getValueAtPercentile(99) / 1e3;
    }

    /** Commands Redis ran per call of any JVM, script-internal calls included and keep-alive left out. */
    double commandsPerOp() {
        return Sample.callCommands(commands) / (double) ops();
    }

    long overlaps() {
        long overlaps = 0;
        for (JvmWindow w : jvms) {
            overlaps += w.overlaps();
        }
        return overlaps;
    }

    /** {@code LockLost} events of every JVM in the window. */
    long lost() {
        long lost = 0;
        for (JvmWindow w : jvms) {
            lost += w.lost();
        }
        return lost;
    }
}
