package dev.padlock.benchmarks;

import dev.padlock.LockType;
import dev.padlock.core.client.RedisConnectionSettings;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.HdrHistogram.Histogram;

/**
 * One of the child JVMs of a multi-JVM row ({@code benchmarks/run --jvms N}, see {@link MultiJvm}): the same
 * CDI application as a one-key row of the suite (both sides, {@link Application}), on the parent's Redis, driven by
 * the parent over stdin and answering on stdout, one line each:
 *
 * <pre>
 *   → ready
 *   ← run padlock|raw &lt;start, epoch µs&gt; &lt;length ms&gt;
 *   → result ... (see {@link JvmWindow}) or failed &lt;reason&gt;
 *   ← quit (or the end of stdin: the parent is gone, and this JVM halts at once)
 * </pre>
 *
 * <p>The start is a wall-clock time all the JVMs read from the same host clock, so their windows begin together
 * whatever the order in which the parent's commands reach them. Anything else printed goes to stderr, which the
 * parent keeps to show when this JVM fails.
 *
 * <p>Arguments: Redis URI (on a topology with a replica, what {@link Connection#encode()} gives), lock type, lease
 * ({@link Row.Lease} name), threads, raw-against-raw, metrics, the body's length in ns ({@code --body}; 0 for none),
 * then any {@code padlock.key=value} of {@code --padlock-config}.
 */
public final class MultiJvmWorker {

    private MultiJvmWorker() {}

    public static void main(String[] args) {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        // A library that prints to stdout must not be read as an answer.
        System.setOut(System.err);
        Logger.getLogger("").setLevel(Level.WARNING);
        int status = 0;
        try {
            serve(args, protocol);
        } catch (Throwable e) {
            e.printStackTrace();
            status = 1;
        }
        // Redisson's and Weld's non-daemon threads must not keep this JVM alive after the parent is done with it.
        System.exit(status);
    }

    private static void serve(String[] args, PrintStream protocol) throws Exception {
        if (args.length < 7) {
            throw new IllegalArgumentException(
                    "usage: MultiJvmWorker <redis uri, or Connection.encode()> <lock type> <lease> <threads>"
                            + " <raw-against-raw> <metrics> <body ns> [padlock.key=value ...]; started by benchmarks/run"
                            + " --jvms N");
        }
        Row row = new Row(
                LockType.valueOf(args[1]),
                Row.Lease.valueOf(args[2]),
                Row.Contention.ONE_KEY,
                Integer.parseInt(args[3]));
        boolean rawAgainstRaw = Boolean.parseBoolean(args[4]);
        boolean metrics = Boolean.parseBoolean(args[5]);
        Body body = new Body(Long.parseLong(args[6]));
        Map<String, String> padlockConfig = new HashMap<>();
        for (int i = 7; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            padlockConfig.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        BlockingQueue<String> commands = commandsFromParent();
        try (Application app = Application.start(
                Connection.decode(args[0]), RedisConnectionSettings.DEFAULT_WATCHDOG_TIMEOUT, metrics, padlockConfig)) {
            Call padlock = rawAgainstRaw ? RawCalls.callFor(app.raw(), row) : LockedCalls.callFor(app.locked(), row);
            Call raw = RawCalls.callFor(app.raw(), row);
            Section padlockSection = new Section(row, body);
            Section rawSection = new Section(row, body);
            protocol.println("ready");
            String line;
            while (!(line = commands.take()).equals("quit")) {
                String[] f = line.split(" ");
                if (f.length != 4 || !f[0].equals("run") || !(f[1].equals("padlock") || f[1].equals("raw"))) {
                    protocol.println("failed unknown command: " + line);
                    continue;
                }
                boolean onPadlock = f[1].equals("padlock");
                try {
                    JvmWindow window = new Window(
                                    onPadlock ? padlock : raw,
                                    onPadlock ? padlockSection : rawSection,
                                    row.threads(),
                                    app::locksLost)
                            .run(Long.parseLong(f[2]), Long.parseLong(f[3]));
                    protocol.println(window.encode());
                } catch (Exception e) {
                    e.printStackTrace();
                    protocol.println("failed " + String.valueOf(e).replace('\n', ' '));
                }
            }
        }
    }

    /**
     * The parent's commands, read on a thread of their own so that the end of stdin is seen at once, even in the
     * middle of a window: the parent is gone (killed outright, no shutdown hook ran), and with it, as likely as not,
     * the Redis it started, on which this JVM's calls would now wait out their 30 s.
     */
    private static BlockingQueue<String> commandsFromParent() {
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        Thread reader = new Thread(
                () -> {
                    try {
                        BufferedReader in =
                                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                        for (String line; (line = in.readLine()) != null; ) {
                            commands.add(line);
                            if (line.equals("quit")) {
                                return;
                            }
                        }
                    } catch (IOException e) {
                        // as good as the end of stdin
                    }
                    System.err.println("stdin closed without quit: the parent is gone; exiting");
                    Runtime.getRuntime().halt(3);
                },
                "parent-commands");
        reader.setDaemon(true);
        reader.start();
        return commands;
    }

    /** One measured window on fresh platform threads, as {@link Pass} runs one, without the counters of the host. */
    private static final class Window {

        private final Call call;
        private final Section section;
        private final int threads;
        /** The application's {@code LockLost} events so far. */
        private final LongSupplier lost;

        private volatile boolean stop;

        Window(Call call, Section section, int threads, LongSupplier lost) {
            this.call = call;
            this.section = section;
            this.threads = threads;
            this.lost = lost;
        }

        JvmWindow run(long startEpochMicros, long lengthMillis) throws InterruptedException {
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(threads);
            Histogram[] latencies = new Histogram[threads];
            long[] ops = new long[threads];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] workers = new Thread[threads];
            long overlapsBefore = section.overlaps();
            long lostBefore = lost.getAsLong();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                latencies[t] = new Histogram(JvmWindow.HIGHEST_NANOS, 3);
                workers[t] = new Thread(
                        () -> {
                            Histogram latency = latencies[thread];
                            long count = 0;
                            ready.countDown();
                            try {
                                go.await();
                                while (!stop) {
                                    long start = System.nanoTime();
                                    call.run(thread, section);
                                    latency.recordValue(Math.min(System.nanoTime() - start, JvmWindow.HIGHEST_NANOS));
                                    count++;
                                }
                            } catch (Throwable e) {
                                failure.compareAndSet(null, e);
                                stop = true;
                            } finally {
                                ops[thread] = count;
                                done.countDown();
                            }
                        },
                        "bench-worker-" + t);
                workers[t].start();
            }
            ready.await();
            long late = Math.max(0, epochMicros() - startEpochMicros);
            long startNanos = System.nanoTime() + (startEpochMicros - epochMicros()) * 1000;
            for (long wait; (wait = startNanos - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(wait);
            }
            long begin = System.nanoTime();
            go.countDown();
            long deadline = begin + lengthMillis * 1_000_000;
            while (!stop && System.nanoTime() < deadline) {
                Thread.sleep(Math.max(1, Math.min(50, (deadline - System.nanoTime()) / 1_000_000)));
            }
            stop = true;
            done.await();
            long nanos = System.nanoTime() - begin;
            for (Thread worker : workers) {
                worker.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a call failed during the window: " + failure.get(), failure.get());
            }
            Histogram all = new Histogram(JvmWindow.HIGHEST_NANOS, 3);
            long total = 0;
            for (int t = 0; t < threads; t++) {
                all.add(latencies[t]);
                total += ops[t];
            }
            return new JvmWindow(
                    total, nanos, section.overlaps() - overlapsBefore, late, lost.getAsLong() - lostBefore, all);
        }

        private static long epochMicros() {
            Instant now = Instant.now();
            return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
        }
    }
}
