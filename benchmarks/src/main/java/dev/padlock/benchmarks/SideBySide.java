package dev.padlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What {@code @Locked} costs over calling Redisson by hand, measured side by side in one run on one Redis.
 *
 * <p>A hand-written harness rather than JMH for the lock rows, because each row needs, over one and the same
 * window: per-call latency percentiles, throughput, JVM CPU and allocation of every thread (Netty's event loops
 * do much of Redisson's work), and {@code INFO commandstats} deltas from the server; and because Padlock and raw
 * passes must alternate within one JVM, on one Redis, so that the drift of a shared 2-core machine cancels out of
 * the ratio. JMH still measures what it is good at: key-template rendering on its own ({@link KeyRendering}).
 *
 * <p>Progress goes to stderr, the markdown report to stdout.
 */
public final class SideBySide {

    /** Bodies parked in a row to see how long one takes here: long enough to average, short next to a row. */
    static final int BODY_SAMPLES = 200;

    private SideBySide() {}

    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--help")) {
            System.out.println(Options.USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Snapshot.requireCounters();
        // Padlock's INFO line per container start is noise here; warnings still show.
        Logger.getLogger("").setLevel(Level.WARNING);
        String command = System.getProperty("padlock.benchmarks.command", "benchmarks/run " + String.join(" ", args));
        List<Row> rows = options.rows();
        List<RowResult> results = new ArrayList<>();
        List<MultiJvmResult> multiJvmResults = new ArrayList<>();
        String machine;
        RenewalStorm.Result storm = null;
        double bodyMicros = 0;
        long started = System.nanoTime();
        try (Topology redis = Topology.start(options.topology())) {
            machine = Machine.describe(redis);
            if (options.storm()) {
                System.err.println("renewal storm: " + options.stormBurst() + " short calls, then one lock held for 3"
                        + " periods of a " + options.stormWatchdog().toSeconds() + " s watchdog, per side...");
                storm = RenewalStorm.run(redis, options.stormBurst(), options.stormWatchdog(), 3);
                System.err.printf(
                        "renewal storm: raw %d renewals (%.1f per period), Padlock %d (%.1f per period)%n",
                        storm.raw().renewals(),
                        storm.raw().perPeriod(),
                        storm.padlock().renewals(),
                        storm.padlock().perPeriod());
            }
            System.err.println(
                    "Redis at " + redis.connection().encode() + "; " + rows.size() + " rows; " + options.describe());
            if (!options.body().empty()) {
                // A parked body wakes late by the OS's timer slack and scheduling: how late, on this machine, now.
                bodyMicros = options.body().measuredMicros(BODY_SAMPLES);
                System.err.printf(
                        "body of %s: %.0f µs on average over %d in a row%n",
                        options.body().length(), bodyMicros, BODY_SAMPLES);
            }
            for (int i = 0; i < rows.size(); i++) {
                Row row = rows.get(i);
                RowResult result = run(row, redis, options);
                results.add(result);
                System.err.printf(
                        "[%d/%d] %s: Padlock/raw %.3f, CPU %+.1f µs/op, commands/op %.2f / %.2f, other processes"
                                + " up to %.2f cores, %d pairs re-run (%.0f s so far)%n",
                        i + 1,
                        rows.size(),
                        row.describe(),
                        result.throughputRatio(),
                        result.extraCpuMicrosPerOp(),
                        result.padlockMedian(Sample::commandsPerOp),
                        result.rawMedian(Sample::commandsPerOp),
                        result.maxForeignCores(),
                        result.rerun(),
                        (System.nanoTime() - started) / 1e9);
            }
            List<Row> multiJvmRows = MultiJvm.rows(options);
            int multiJvmRun = 0;
            int multiJvmTotal = multiJvmRows.size() * options.jvms().size();
            for (int jvms : options.jvms()) {
                for (Row row : multiJvmRows) {
                    MultiJvmResult result = MultiJvm.run(row, jvms, redis, options);
                    multiJvmResults.add(result);
                    System.err.printf(
                            "[JVMs %d/%d] %d JVMs, %s per JVM: Padlock/raw %.3f, smallest JVM's share Padlock %.1f %%"
                                    + " (lowest pass %.1f %%) / raw %.1f %% (%.1f %%), commands/op %.2f / %.2f (%.0f s"
                                    + " so far)%n",
                            ++multiJvmRun,
                            multiJvmTotal,
                            jvms,
                            row.describe(),
                            result.throughputRatio(),
                            MultiJvmResult.overallSmallestShare(result.padlock()) * 100,
                            MultiJvmResult.minSmallestShare(result.padlock()) * 100,
                            MultiJvmResult.overallSmallestShare(result.raw()) * 100,
                            MultiJvmResult.minSmallestShare(result.raw()) * 100,
                            MultiJvmResult.median(result.padlock(), MultiJvmSample::commandsPerOp),
                            MultiJvmResult.median(result.raw(), MultiJvmSample::commandsPerOp),
                            (System.nanoTime() - started) / 1e9);
                }
            }
        }
        List<KeyRendering.Line> keys = List.of();
        if (options.rendering()) {
            System.err.println("key-template rendering (JMH)...");
            keys = KeyRendering.run(options.quick());
        }
        System.out.print(Report.markdown(machine, command, options, bodyMicros, results, multiJvmResults, keys, storm));
        System.err.printf("done in %.0f s%n", (System.nanoTime() - started) / 1e9);
    }

    /**
     * Warm both sides up, then alternate measured passes: Padlock first on even passes, raw first on odd ones. A
     * pair during which other processes kept more than {@code --max-foreign} of a core busy (a build next door) is
     * measured again, at most half as many times as there are passes (so a busy machine costs at most half again the
     * time), and counted in the report.
     */
    static RowResult run(Row row, Topology redis, Options options) throws InterruptedException {
        redis.reset();
        try (Application app = Application.start(redis, options.metrics(), options.padlockConfig())) {
            // --raw-against-raw: the control, both columns raw; the harness must then report ~1.000 everywhere.
            Call padlock =
                    options.rawAgainstRaw() ? RawCalls.callFor(app.raw(), row) : LockedCalls.callFor(app.locked(), row);
            Call raw = RawCalls.callFor(app.raw(), row);
            Section padlockSection = new Section(row, options.body());
            Section rawSection = new Section(row, options.body());
            Duration warmup = options.warmup();
            new Pass(padlock, padlockSection, row.threads(), redis).run(warmup);
            new Pass(raw, rawSection, row.threads(), redis).run(warmup);
            List<Sample> padlockSamples = new ArrayList<>();
            List<Sample> rawSamples = new ArrayList<>();
            int rerun = 0;
            while (padlockSamples.size() < options.passes()) {
                Sample p;
                Sample r;
                if (padlockSamples.size() % 2 == 0) {
                    p = new Pass(padlock, padlockSection, row.threads(), redis).run(options.pass());
                    r = new Pass(raw, rawSection, row.threads(), redis).run(options.pass());
                } else {
                    r = new Pass(raw, rawSection, row.threads(), redis).run(options.pass());
                    p = new Pass(padlock, padlockSection, row.threads(), redis).run(options.pass());
                }
                boolean disturbed = Math.max(p.foreignCores(), r.foreignCores()) > options.maxForeignCores();
                if (disturbed && rerun < (options.passes() + 1) / 2) {
                    rerun++;
                    continue;
                }
                padlockSamples.add(p);
                rawSamples.add(r);
            }
            if (options.metrics() && !options.rawAgainstRaw() && app.meteredAcquisitions() <= 0) {
                throw new IllegalStateException("--metrics: Padlock's meters counted no acquisition in " + row);
            }
            return new RowResult(row, padlockSamples, rawSamples, rerun);
        }
    }
}
