package dev.padlock.benchmarks;

import dev.padlock.LockType;
import dev.padlock.testing.CommandStats;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The multi-JVM one-key rows ({@code --jvms N}; {@code --two-jvms} is {@code --jvms 2}, issue #17): N child JVMs
 * ({@link MultiJvmWorker}) run the same one-key load at once on the suite's Redis, so that Padlock's local hand-off of
 * a hot key has to share it with other processes, as in a deployment of N instances. Each child hosts both sides,
 * like a one-key row of the suite, and stays up for all passes of the row; the parent makes all of them measure the
 * same side over the same window, alternating sides as {@link SideBySide#run} does, and reads Redis's command
 * counters around it.
 */
final class MultiJvm {

    /** Time for the start command to reach every child before the common start. */
    private static final Duration START_MARGIN = Duration.ofMillis(200);

    /**
     * A child boots Weld and two Redisson clients, and all of a row's children boot at once: on a busy 2-core machine
     * that takes a while, the longer the more of them there are.
     */
    private static final Duration BOOT_TIMEOUT_BASE = Duration.ofSeconds(60);

    private static final Duration BOOT_TIMEOUT_PER_JVM = Duration.ofSeconds(30);

    /** Beyond the window, calls in flight may each wait up to their 30 s wait time. */
    private static final Duration ANSWER_SLACK = Duration.ofSeconds(90);

    /** A child that got to the common start later than this measured partly alone: said on stderr. */
    private static final long LATE_WARNING_MICROS = 20_000;

    private MultiJvm() {}

    /** The rows: one key, per lock type, lease and thread count (threads per JVM), whatever {@code --keys} says. */
    static List<Row> rows(Options options) {
        List<Row> rows = new ArrayList<>();
        for (LockType type : options.types()) {
            for (Row.Lease lease : options.leases()) {
                for (int threads : options.threads()) {
                    rows.add(new Row(type, lease, Row.Contention.ONE_KEY, threads));
                }
            }
        }
        return rows;
    }

    /** One row with {@code count} child JVMs, each with {@code row.threads()} threads on the one key. */
    static MultiJvmResult run(Row row, int count, Topology redis, Options options)
            throws IOException, InterruptedException {
        redis.reset();
        List<String> args = new ArrayList<>(List.of(
                redis.connection().encode(),
                row.type().name(),
                row.lease().name(),
                String.valueOf(row.threads()),
                String.valueOf(options.rawAgainstRaw()),
                String.valueOf(options.metrics()),
                String.valueOf(options.body().nanos())));
        options.padlockConfig().forEach((key, value) -> args.add(key + "=" + value));
        String main = MultiJvmWorker.class.getName();
        List<ChildJvm> jvms = new ArrayList<>();
        try {
            for (int j = 1; j <= count; j++) {
                jvms.add(ChildJvm.start("JVM " + j, main, args));
            }
            Duration boot = BOOT_TIMEOUT_BASE.plus(BOOT_TIMEOUT_PER_JVM.multipliedBy(count));
            for (ChildJvm jvm : jvms) {
                // They boot side by side: the wait for the first covers most of the others'.
                String ready = jvm.answer(boot);
                if (!ready.equals("ready")) {
                    throw new IllegalStateException(jvm.name() + " answered \"" + ready + "\" instead of ready");
                }
            }
            window(jvms, "padlock", options.warmup(), redis);
            window(jvms, "raw", options.warmup(), redis);
            List<MultiJvmSample> padlock = new ArrayList<>();
            List<MultiJvmSample> raw = new ArrayList<>();
            for (int pass = 0; pass < options.passes(); pass++) {
                if (pass % 2 == 0) {
                    padlock.add(window(jvms, "padlock", options.pass(), redis));
                    raw.add(window(jvms, "raw", options.pass(), redis));
                } else {
                    raw.add(window(jvms, "raw", options.pass(), redis));
                    padlock.add(window(jvms, "padlock", options.pass(), redis));
                }
            }
            return new MultiJvmResult(row, count, options.body().empty(), padlock, raw);
        } finally {
            ChildJvm.closeAll(jvms);
        }
    }

    /**
     * Every child measures {@code side} from a common wall-clock start for {@code length}; Redis's counters are read
     * while all are idle, before the command and after every answer, so the window holds their calls and nothing
     * else of theirs.
     */
    private static MultiJvmSample window(List<ChildJvm> jvms, String side, Duration length, Topology redis)
            throws InterruptedException {
        CommandStats before = redis.master().commandStats();
        Instant start = Instant.now().plus(START_MARGIN);
        long startMicros = start.getEpochSecond() * 1_000_000 + start.getNano() / 1_000;
        for (ChildJvm jvm : jvms) {
            jvm.send("run " + side + " " + startMicros + " " + length.toMillis());
        }
        Duration timeout = START_MARGIN.plus(length).plus(ANSWER_SLACK);
        List<JvmWindow> windows = new ArrayList<>();
        for (ChildJvm jvm : jvms) {
            JvmWindow w = JvmWindow.decode(jvm.answer(timeout));
            if (w.lateMicros() > LATE_WARNING_MICROS) {
                System.err.printf(
                        "  %s started its %s window %.1f ms after the common start%n",
                        jvm.name(), side, w.lateMicros() / 1e3);
            }
            windows.add(w);
        }
        CommandStats after = redis.master().commandStats();
        return new MultiJvmSample(windows, after.minus(before));
    }
}
