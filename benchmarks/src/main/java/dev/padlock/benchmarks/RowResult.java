package dev.padlock.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The passes of one row, both sides. Passes alternate between the sides, so the ratio and the CPU difference are
 * taken pass by pass (each Padlock pass against the raw pass next to it in time) and then their median: drift of
 * a shared machine hits both members of a pair alike. {@code rerun} pairs were measured again because other
 * processes disturbed them.
 */
record RowResult(Row row, List<Sample> padlock, List<Sample> raw, int rerun) {

    static final double GOAL_THROUGHPUT_RATIO = 0.97;
    static final double GOAL_EXTRA_CPU_MICROS = 5.0;
    /** Commands per op are averages over thousands of calls; a Padlock pass may catch one stray PING-like call more. */
    private static final double COMMANDS_TOLERANCE = 0.005;

    double throughputRatio() {
        return pairwiseMedian(s -> s.opsPerSecond(), (p, r) -> p / r);
    }

    /** The lowest and highest pass-by-pass ratio: how far single passes strayed from the median. */
    double[] throughputRatioRange() {
        List<Double> ratios = pairwise(s -> s.opsPerSecond(), (p, r) -> p / r);
        Collections.sort(ratios);
        return new double[] {ratios.get(0), ratios.get(ratios.size() - 1)};
    }

    double extraCpuMicrosPerOp() {
        return pairwiseMedian(Sample::cpuMicrosPerOp, (p, r) -> p - r);
    }

    double padlockMedian(ToDoubleFunction<Sample> metric) {
        return median(padlock, metric);
    }

    double rawMedian(ToDoubleFunction<Sample> metric) {
        return median(raw, metric);
    }

    /** The most other processes used during a kept pass, in cores. */
    double maxForeignCores() {
        double max = 0;
        for (Sample s : padlock) {
            max = Math.max(max, s.foreignCores());
        }
        for (Sample s : raw) {
            max = Math.max(max, s.foreignCores());
        }
        return max;
    }

    long overlaps() {
        long overlaps = 0;
        for (Sample s : padlock) {
            overlaps += s.overlaps;
        }
        for (Sample s : raw) {
            overlaps += s.overlaps;
        }
        return overlaps;
    }

    /** Empty when the row meets the goal or the goal is not about it, else what misses. */
    List<String> goalMisses() {
        List<String> misses = new ArrayList<>();
        if (overlaps() > 0) {
            misses.add(overlaps() + " overlapping holders");
        }
        if (!row.uncontended()) {
            return misses;
        }
        if (throughputRatio() < GOAL_THROUGHPUT_RATIO) {
            misses.add(String.format("throughput %.3f < %.2f", throughputRatio(), GOAL_THROUGHPUT_RATIO));
        }
        if (extraCpuMicrosPerOp() > GOAL_EXTRA_CPU_MICROS) {
            misses.add(String.format("CPU +%.1f µs > +%.0f µs", extraCpuMicrosPerOp(), GOAL_EXTRA_CPU_MICROS));
        }
        double p = padlockMedian(Sample::commandsPerOp);
        double r = rawMedian(Sample::commandsPerOp);
        if (p > r + COMMANDS_TOLERANCE) {
            misses.add(String.format("%.2f commands/op > raw %.2f", p, r));
        }
        return misses;
    }

    private interface Pairing {
        double apply(double padlock, double raw);
    }

    private double pairwiseMedian(ToDoubleFunction<Sample> metric, Pairing pairing) {
        return medianOf(pairwise(metric, pairing));
    }

    private List<Double> pairwise(ToDoubleFunction<Sample> metric, Pairing pairing) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < Math.min(padlock.size(), raw.size()); i++) {
            values.add(pairing.apply(metric.applyAsDouble(padlock.get(i)), metric.applyAsDouble(raw.get(i))));
        }
        return values;
    }

    static double median(List<Sample> samples, ToDoubleFunction<Sample> metric) {
        List<Double> values = new ArrayList<>();
        for (Sample s : samples) {
            values.add(metric.applyAsDouble(s));
        }
        return medianOf(values);
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
