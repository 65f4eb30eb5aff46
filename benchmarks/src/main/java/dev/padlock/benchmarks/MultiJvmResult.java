package dev.padlock.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The passes of one two-JVM row, both sides, and the goal of issue #17: with two JVMs on one key, Padlock's
 * aggregate throughput at least twice raw Redisson's, and each JVM at least 30 % of the acquisitions over the run
 * (local hand-off must not starve the other JVM).
 */
record MultiJvmResult(Row row, List<MultiJvmSample> padlock, List<MultiJvmSample> raw) {

    static final double GOAL_THROUGHPUT_RATIO = 2.0;
    static final double GOAL_SMALLER_SHARE = 0.30;

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

    /** The smaller JVM's share in the pass where it was smallest. */
    static double minSmallerShare(List<MultiJvmSample> samples) {
        double min = 1;
        for (MultiJvmSample s : samples) {
            min = Math.min(min, s.smallerShare());
        }
        return min;
    }

    /** The smaller JVM's share of all the side's measured acquisitions, every pass together. */
    static double overallSmallerShare(List<MultiJvmSample> samples) {
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

    /** Empty when the row meets the goal, else what misses. */
    List<String> goalMisses() {
        List<String> misses = new ArrayList<>();
        if (overlaps() > 0) {
            misses.add(overlaps() + " overlapping holders");
        }
        if (throughputRatio() < GOAL_THROUGHPUT_RATIO) {
            misses.add(
                    String.format(Locale.ROOT, "Padlock/raw %.2f < %.0f×", throughputRatio(), GOAL_THROUGHPUT_RATIO));
        }
        double share = overallSmallerShare(padlock);
        if (share < GOAL_SMALLER_SHARE) {
            misses.add(String.format(
                    Locale.ROOT, "smaller JVM's share %.0f %% < %.0f %%", share * 100, GOAL_SMALLER_SHARE * 100));
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
