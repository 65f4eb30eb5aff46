package dev.padlock.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** Runs the JMH key-template benchmark in a forked JVM and returns one line per template shape. */
final class KeyRendering {

    record Line(String shape, double nanosPerOp, double nanosError, double bytesPerOp) {}

    private KeyRendering() {}

    static List<Line> run(boolean quick) throws RunnerException {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .include(KeyRenderingBenchmark.class.getName() + "\\.")
                        .forks(1)
                        .warmupIterations(quick ? 2 : 3)
                        .warmupTime(TimeValue.milliseconds(quick ? 500 : 1000))
                        .measurementIterations(quick ? 3 : 5)
                        .measurementTime(TimeValue.milliseconds(quick ? 500 : 1000))
                        .timeUnit(TimeUnit.NANOSECONDS)
                        .addProfiler(GCProfiler.class)
                        .verbosity(VerboseMode.SILENT)
                        .build())
                .run();
        List<Line> lines = new ArrayList<>();
        for (RunResult run : results) {
            String label = run.getParams().getBenchmark();
            String shape = label.substring(label.lastIndexOf('.') + 1);
            Result<?> primary = run.getPrimaryResult();
            Result<?> allocation = run.getSecondaryResults().get("·gc.alloc.rate.norm");
            if (allocation == null) {
                allocation = run.getSecondaryResults().get("gc.alloc.rate.norm");
            }
            lines.add(new Line(
                    shape,
                    primary.getScore(),
                    primary.getScoreError(),
                    allocation == null ? Double.NaN : allocation.getScore()));
        }
        return lines;
    }
}
