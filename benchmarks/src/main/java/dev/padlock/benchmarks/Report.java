package dev.padlock.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** The markdown the suite prints: one table, Padlock against raw Redisson row by row, then the details. */
final class Report {

    private Report() {}

    static String markdown(
            String machine,
            String command,
            Options options,
            double bodyMicros,
            List<RowResult> rows,
            List<MultiJvmResult> multiJvm,
            List<KeyRendering.Line> keys,
            RenewalStorm.Result storm) {
        StringBuilder md = new StringBuilder();
        md.append("Measured with `")
                .append(command)
                .append("` on ")
                .append(machine)
                .append(".\n");
        md.append(options.describe()).append(".\n");
        if (options.body().empty()) {
            md.append("Body inside the lock: empty (`--body` not given), so the lock is all that is measured.\n\n");
        } else {
            md.append(String.format(
                    Locale.ROOT,
                    "Body inside the lock (`--body %s`): every measured call, Padlock and raw, in every row, parks for"
                            + " %s while it holds the lock, as a method waiting on I/O would (the CPU stays free for"
                            + " Redisson, Redis and the other callers; a spinning body would take a core per holder)."
                            + " Parked bodies wake late by the OS's timer slack: %.0f µs each on average here, %d in a"
                            + " row before the rows.\n\n",
                    options.body().length().replace(" ", ""),
                    options.body().length(),
                    bodyMicros,
                    SideBySide.BODY_SAMPLES));
        }
        md.append("| lock | lease (raw call) | keys | threads | Padlock ops/s | raw ops/s | **Padlock/raw** (passes)"
                + " | p50 µs Padlock / raw | p99 µs Padlock / raw | JVM CPU µs/op Padlock / raw (Δ)"
                + " | alloc KB/op Padlock / raw | Redis cmds/op Padlock / raw | goal |\n");
        md.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
        for (RowResult r : rows) {
            Row row = r.row();
            List<String> misses = r.goalMisses();
            String goal = !row.uncontended() && misses.isEmpty()
                    ? "—"
                    : misses.isEmpty() ? "✓" : "✗ " + String.join("; ", misses);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s (%s) | %s | %d | %,.0f | %,.0f | **%.3f** (%.2f–%.2f%s) | %s / %s | %s / %s | %.1f / %.1f (%+.1f)"
                            + " | %.1f / %.1f | %.2f / %.2f | %s |\n",
                    row.type().name().toLowerCase(Locale.ROOT),
                    row.lease().label,
                    row.lease().rawCall,
                    row.contention().label,
                    row.threads(),
                    r.padlockMedian(Sample::opsPerSecond),
                    r.rawMedian(Sample::opsPerSecond),
                    r.throughputRatio(),
                    r.throughputRatioRange()[0],
                    r.throughputRatioRange()[1],
                    r.rerun() == 0 ? "" : "; " + r.rerun() + " re-run",
                    micros(r.padlockMedian(Sample::p50Micros)),
                    micros(r.rawMedian(Sample::p50Micros)),
                    micros(r.padlockMedian(Sample::p99Micros)),
                    micros(r.rawMedian(Sample::p99Micros)),
                    r.padlockMedian(Sample::cpuMicrosPerOp),
                    r.rawMedian(Sample::cpuMicrosPerOp),
                    r.extraCpuMicrosPerOp(),
                    r.padlockMedian(Sample::allocatedBytesPerOp) / 1024,
                    r.rawMedian(Sample::allocatedBytesPerOp) / 1024,
                    r.padlockMedian(Sample::commandsPerOp),
                    r.rawMedian(Sample::commandsPerOp),
                    goal));
        }
        md.append("\nPadlock/raw is the median, over the passes, of each Padlock pass's throughput divided by the raw"
                + " pass next to it in time (in brackets: the lowest and highest of those ratios, and how many pairs were"
                + " measured again because other processes used more than " + options.maxForeignCores() + " cores"
                + " meanwhile); Δ likewise for JVM"
                + " CPU. JVM CPU is the whole process (callers, Netty event loops, timers, GC; read from "
                + Snapshot.cpuClock()
                + ") divided by calls. Redis commands are `INFO commandstats` deltas over the same"
                + " window, script-internal calls included, keep-alive PINGs left out"
                + (options.topology().hasReplica()
                        ? "; counted on the master, and without the replica's REPLCONF ACKs, which the master asks for"
                                + " once per event-loop turn with a WAIT pending (they are in the mix below)"
                        : "")
                + ". The goal (Padlock/raw ≥ 0.97, at most +5 µs JVM CPU per call, no more commands than raw) applies"
                + " to the own-keys rows.\n");
        appendCommandMix(md, rows, options.topology().hasReplica());
        appendMultiJvm(md, options, multiJvm);
        if (storm != null) {
            md.append(String.format(
                    Locale.ROOT,
                    "\nRenewal traffic: %,d short watchdog-mode calls on one thread, then one lock held for %.1f s"
                            + " (watchdog timeout %d s, renewal period %.1f s); every EVAL/EVALSHA in that window is"
                            + " a renewal.\n\n",
                    storm.burst(),
                    storm.raw().heldMillis() / 1000.0,
                    storm.watchdog().toSeconds(),
                    storm.raw().periodMillis() / 1000.0));
            md.append("| side | renewal scripts | per period (expected 1) |\n|---|--:|--:|\n");
            md.append(String.format(
                    Locale.ROOT,
                    "| raw `lock(); unlock();` | %,d | %,.1f |\n",
                    storm.raw().renewals(),
                    storm.raw().perPeriod()));
            md.append(String.format(
                    Locale.ROOT,
                    "| `@Locked` (no lease) | %,d | %,.1f |\n",
                    storm.padlock().renewals(),
                    storm.padlock().perPeriod()));
        }
        if (!keys.isEmpty()) {
            md.append(
                    "\nKey-template rendering on its own (JMH, 1 fork, average time; `padlock:` prefix included):\n\n");
            md.append("| template shape | ns/call | B/call |\n|---|--:|--:|\n");
            for (KeyRendering.Line line : keys) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %.1f ± %.1f | %.0f |\n",
                        line.shape(),
                        line.nanosPerOp(),
                        line.nanosError(),
                        line.bytesPerOp()));
            }
        }
        return md.toString();
    }

    /**
     * Which commands make up the per-call count: for the single-thread own-key rows (the cleanest view), and for
     * any row where the two sides differ by more than a rounding; on a topology with a replica, for every row.
     */
    private static void appendCommandMix(StringBuilder md, List<RowResult> rows, boolean everyRow) {
        StringBuilder lines = new StringBuilder();
        for (RowResult r : rows) {
            boolean differs =
                    Math.abs(r.padlockMedian(Sample::commandsPerOp) - r.rawMedian(Sample::commandsPerOp)) > 0.1;
            if (!everyRow && !differs && (r.row().threads() != 1 || !r.row().uncontended())) {
                continue;
            }
            Map<String, Double> padlock =
                    r.padlock().get(r.padlock().size() - 1).commandMixPerOp();
            Map<String, Double> raw = r.raw().get(r.raw().size() - 1).commandMixPerOp();
            TreeSet<String> commands = new TreeSet<>(padlock.keySet());
            commands.addAll(raw.keySet());
            StringBuilder mix = new StringBuilder();
            for (String c : commands) {
                double p = padlock.getOrDefault(c, 0.0);
                double w = raw.getOrDefault(c, 0.0);
                if (p >= 0.005 || w >= 0.005) {
                    mix.append(String.format(Locale.ROOT, "%s %.2f / %.2f, ", c, p, w));
                }
            }
            if (mix.length() > 0) {
                mix.setLength(mix.length() - 2);
            }
            lines.append(String.format(
                    Locale.ROOT,
                    "| %s, %s, %s, %d %s | %s |\n",
                    r.row().type().name().toLowerCase(Locale.ROOT),
                    r.row().lease().label,
                    r.row().contention().label,
                    r.row().threads(),
                    r.row().threads() == 1 ? "thread" : "threads",
                    mix));
        }
        if (lines.length() > 0) {
            md.append(
                    everyRow
                            ? "\nCommands per call on the master, Padlock / raw (last pass; every row, since with a"
                                    + " replica the WAITs are what the rows are about):\n\n"
                            : "\nCommands per call, Padlock / raw (last pass; 1-thread own-key rows, and rows that"
                                    + " differ):\n\n");
            md.append("| row | commands |\n|---|---|\n").append(lines);
        }
    }

    /** The multi-JVM one-key rows ({@code --jvms N}; issue #17 for N = 2), when asked for. */
    private static void appendMultiJvm(StringBuilder md, Options options, List<MultiJvmResult> rows) {
        if (rows.isEmpty()) {
            return;
        }
        StringBuilder counts = new StringBuilder();
        for (int jvms : options.jvms()) {
            counts.append(counts.length() == 0 ? "" : ",").append(jvms);
        }
        md.append("\nSeveral JVMs on one key (`--jvms ")
                .append(counts)
                .append("`): every JVM of a row runs the same load at once, on the same Redis.\n\n");
        md.append("| lock | lease (raw call) | JVMs | threads per JVM | Padlock ops/s | raw ops/s | **Padlock/raw**"
                + " (passes) | p50 µs Padlock / raw | p99 µs Padlock / raw | Redis cmds/op Padlock / raw"
                + " | smallest JVM's share Padlock: overall (lowest pass) | raw: overall (lowest pass) | LockLost"
                + " | goal |\n");
        md.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
        for (MultiJvmResult r : rows) {
            Row row = r.row();
            List<String> misses = r.goalMisses();
            double[] range = r.throughputRatioRange();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s (%s) | %d | %d | %,.0f | %,.0f | **%.2f** (%.2f–%.2f) | %s / %s | %s / %s | %.2f / %.2f"
                            + " | %.1f %% (%.1f %%) | %.1f %% (%.1f %%) | %d | %s |\n",
                    row.type().name().toLowerCase(Locale.ROOT),
                    row.lease().label,
                    row.lease().rawCall,
                    r.jvms(),
                    row.threads(),
                    MultiJvmResult.median(r.padlock(), MultiJvmSample::opsPerSecond),
                    MultiJvmResult.median(r.raw(), MultiJvmSample::opsPerSecond),
                    r.throughputRatio(),
                    range[0],
                    range[1],
                    micros(MultiJvmResult.median(r.padlock(), MultiJvmSample::p50Micros)),
                    micros(MultiJvmResult.median(r.raw(), MultiJvmSample::p50Micros)),
                    micros(MultiJvmResult.median(r.padlock(), MultiJvmSample::p99Micros)),
                    micros(MultiJvmResult.median(r.raw(), MultiJvmSample::p99Micros)),
                    MultiJvmResult.median(r.padlock(), MultiJvmSample::commandsPerOp),
                    MultiJvmResult.median(r.raw(), MultiJvmSample::commandsPerOp),
                    MultiJvmResult.overallSmallestShare(r.padlock()) * 100,
                    MultiJvmResult.minSmallestShare(r.padlock()) * 100,
                    MultiJvmResult.overallSmallestShare(r.raw()) * 100,
                    MultiJvmResult.minSmallestShare(r.raw()) * 100,
                    r.locksLost(),
                    misses.isEmpty() ? "✓" : "✗ " + String.join("; ", misses)));
        }
        md.append("\nEach row starts that many child JVMs from the suite's jar (same heap and collector flags as this"
                + " one), each with the CDI application of the one-key rows (Padlock's client and a raw Redisson"
                + " client) and the given number of threads calling the one key; all stay up for all passes of the"
                + " row. For every pass all JVMs run the same side over a common window (a wall-clock start time sent"
                + " to each over stdin), Padlock and raw alternating as in the table above, after one warm-up window"
                + " per side. Throughput is the sum of every JVM's calls per second of its window; Padlock/raw the"
                + " median of pass-by-pass ratios (in brackets the lowest and highest); p50/p99 from the latencies of"
                + " every call of every JVM merged (HdrHistogram), medians over passes; Redis commands are `INFO"
                + " commandstats` deltas around the window, read while all JVMs were idle, script-internal calls"
                + " included, keep-alive PINGs left out, divided by the calls of all JVMs. The share is the part of the"
                + " side's acquisitions (calls) that the JVM with the fewest got, over all passes, and in brackets the"
                + " lowest such share in a single pass (whichever JVM it was); 1/N is an even split. Goal: Padlock/raw ≥ "
                + String.format(Locale.ROOT, "%.0f", MultiJvmResult.GOAL_THROUGHPUT_RATIO)
                + "; with 2 JVMs, the smaller one's share of Padlock's acquisitions ≥ "
                + String.format(Locale.ROOT, "%.0f", MultiJvmResult.GOAL_SMALLER_SHARE_OF_TWO * 100)
                + " % over the run (issue #17); with 3 or more, the smallest one's share ≥ "
                + String.format(Locale.ROOT, "%.0f", MultiJvmResult.GOAL_SMALLEST_SHARE_PER_PASS * 100)
                + " % in every pass (these two goals for an empty body only: with a body, one body at a time bounds"
                + " both sides); and no LockLost (the `LockLost` events of Padlock's calls in every JVM over the"
                + " measured passes: nothing is lost on purpose here, so any is a false loss or a hand-off gone"
                + " wrong). Overlapping holders are counted within each JVM only.\n");
    }

    private static String micros(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
