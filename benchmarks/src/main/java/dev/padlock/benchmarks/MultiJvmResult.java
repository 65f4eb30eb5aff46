package dev.padlock.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The passes of one multi-JVM row, both sides, and its goal: with N JVMs on one key, Padlock's aggregate throughput
 * at least 4 times raw Redisson's, without local hand-off starving any JVM. With two JVMs (issue #17) the smaller
 * one must get at least 30 % of Padlock's acquisitions over the run; with three or more, the smallest must get at
 * least 15 % in every single pass, since a JVM can be shut out for a pass while the run's total still looks fair.
 *
 * @param jvms how many child JVMs ran the row at once
 */
record MultiJvmResult(Row row, int jvms, boolean emptyBody, List<MultiJvmSample> padlock, List<MultiJvmSample> raw) {

    static final double GOAL_THROUGHPUT_RATIO = 4.0;

    /** Two JVMs: the smaller one's share of Padlock's acquisitions over the whole run. */
    static final double GOAL_SMALLER_SHARE_OF_TWO = 0.30;

    /** Three JVMs or more: the smallest one's share of Padlock's acquisitions in every pass. */
    static final double GOAL_SMALLEST_SHARE_PER_PASS = 0.15;

    /** The median of each Padlock pass's aggregate throughput over the raw pass next to it in time. */
    double throughputRatio() {
        return medianOf(ratios());
    }

    double[] throughputRatioRange() {
        List<Double> ratios = ratios();
        Collections.sort(ratios);
        return new double[] {ratios.get(0), ratios.get(ratios.size() - 1)};
    }

    private List<Double> ratios() {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(padlock.size(), raw.size()); i++) {
            ratios.add(padlock.get(i).opsPerSecond() / raw.get(i).opsPerSecond());
        }
        return ratios;
    }

    static double median(List<MultiJvmSample> samples, ToDoubleFunction<MultiJvmSample> metric) {
        List<Double> values = new ArrayList<>();
        for (MultiJvmSample s : samples) {
            values.add(metric.applyAsDouble(s));
        }
        return medianOf(values);
    }

    /** The smallest JVM's share in the pass where it was lowest (that JVM may differ from pass to pass). */
    static double minSmallestShare(List<MultiJvmSample> samples) {
        double min = 1;
        for (MultiJvmSample s : samples) {
            min = Math.min(min, s.smallestShare());
        }
        return min;
    }

    /** The smallest JVM's share of all the side's measured acquisitions, every pass together. */
    static double overallSmallestShare(List<MultiJvmSample> samples) {
        long[] byJvm = new long[samples.get(0).jvms().size()];
        long total = 0;
        for (MultiJvmSample s : samples) {
            for (int j = 0; j < byJvm.length; j++) {
                byJvm[j] += s.jvms().get(j).ops();
                total += s.jvms().get(j).ops();
            }
        }
        long smallest = Long.MAX_VALUE;
        for (long ops : byJvm) {
            smallest = Math.min(smallest, ops);
        }
        return total == 0 ? 0 : (double) smallest / total;
    }

    long overlaps() {
        long overlaps = 0;
        for (MultiJvmSample s : padlock) {
            overlaps += s.overlaps();
        }
        for (MultiJvmSample s : raw) {
            overlaps += s.overlaps();
        }
        return overlaps;
    }

    /** {@code LockLost} events of Padlock's calls over every measured pass (the warm-up left out). */
    long locksLost() {
        long lost = 0;
        for (MultiJvmSample s : padlock) {
            lost += s.lost();
        }
        return lost;
    }

    /** Empty when the row meets the goal, else what misses. */
    List<String> goalMisses() {
        List<String> misses = new ArrayList<>();
        if (overlaps() > 0) {
            misses.add(overlaps() + " overlapping holders");
        }
        if (locksLost() > 0) {
            misses.add(locksLost() + " LockLost without a fault");
        }
        if (!emptyBody) {
            // with a body, the key's own capacity (one body at a time) bounds both sides: only the checks above apply
            return misses;
        }
        if (throughputRatio() < GOAL_THROUGHPUT_RATIO) {
            misses.add(String.format(Locale.ROOT, "Padlock/raw %.2f < %.0f", throughputRatio(), GOAL_THROUGHPUT_RATIO));
        }
        if (jvms == 2) {
            double share = overallSmallestShare(padlock);
            if (share < GOAL_SMALLER_SHARE_OF_TWO) {
                misses.add(String.format(
                        Locale.ROOT,
                        "smaller JVM's share %.1f %% < %.0f %% over the run",
                        share * 100,
                        GOAL_SMALLER_SHARE_OF_TWO * 100));
            }
        } else {
            double share = minSmallestShare(padlock);
            if (share < GOAL_SMALLEST_SHARE_PER_PASS) {
                misses.add(String.format(
                        Locale.ROOT,
                        "smallest JVM's share %.1f %% < %.0f %% in a pass",
                        share * 100,
                        GOAL_SMALLEST_SHARE_PER_PASS * 100));
            }
        }
        return misses;
    }

    private static double medianOf(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }
}
