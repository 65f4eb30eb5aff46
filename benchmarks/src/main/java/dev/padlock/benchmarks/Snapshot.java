package dev.padlock.benchmarks;

import dev.padlock.testing.CommandStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The counters a pass is measured by, read just before the workers start and just after they stop. */
final class Snapshot {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    final long nanos;
    final Map<Long, Long> cpuNanosByThread;
    final Map<Long, Long> allocatedBytesByThread;
    final CommandStats commands;
    final double redisCpuSeconds;
    /** CPU time the whole host spent busy (every process, steal included), from /proc/stat; -1 where unknown. */
    final long hostBusyNanos;

    private Snapshot(
            long nanos,
            Map<Long, Long> cpuNanosByThread,
            Map<Long, Long> allocatedBytesByThread,
            CommandStats commands,
            double redisCpuSeconds,
            long hostBusyNanos) {
        this.nanos = nanos;
        this.cpuNanosByThread = cpuNanosByThread;
        this.allocatedBytesByThread = allocatedBytesByThread;
        this.commands = commands;
        this.redisCpuSeconds = redisCpuSeconds;
        this.hostBusyNanos = hostBusyNanos;
    }

    /**
     * Linux reports each thread's time on CPU in nanoseconds here (GC and JIT threads included), where the
     * process CPU time of the JVM only moves in 10 ms steps: over a pass of ~10k calls that is ±1 µs per call,
     * too coarse for a budget of 5.
     */
    private static final Path TASKS = Path.of("/proc/self/task");

    private static final boolean PER_TASK_CPU = Files.isDirectory(TASKS);

    static void requireCounters() {
        if (!THREADS.isThreadAllocatedMemorySupported() || OS.getProcessCpuTime() < 0) {
            throw new IllegalStateException("This JVM does not report per-thread allocation or process CPU time;"
                    + " run the suite on HotSpot (OpenJDK, Temurin).");
        }
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    /** How the JVM's CPU time is read, for the report. */
    static String cpuClock() {
        return PER_TASK_CPU ? "the sum of /proc/self/task/*/schedstat (ns)" : "the process CPU time (coarse)";
    }

    /**
     * CPU time per thread of this process (GC and JIT threads included), by thread id; a single entry for the
     * whole process where there is no per-task clock.
     */
    private static Map<Long, Long> cpuNanosByThread() {
        Map<Long, Long> byThread = new HashMap<>();
        if (!PER_TASK_CPU) {
            byThread.put(-1L, OS.getProcessCpuTime());
            return byThread;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("schedstat"));
                    byThread.put(
                            Long.parseLong(task.getFileName().toString()),
                            Long.parseLong(stat.substring(0, stat.indexOf(' '))));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being listed
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return byThread;
    }

    /** CPU used between two snapshots; a thread born in between counts in full, one that ended is lost. */
    static long cpuBetween(Snapshot start, Snapshot end) {
        return sumOfIncreases(start.cpuNanosByThread, end.cpuNanosByThread);
    }

    private static long sumOfIncreases(Map<Long, Long> start, Map<Long, Long> end) {
        long total = 0;
        for (Map.Entry<Long, Long> e : end.entrySet()) {
            total += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        }
        return total;
    }

    /** Redis counters first and JVM counters last, so the JVM's own INFO round trips stay outside its window. */
    static Snapshot before(Topology redis) {
        CommandStats commands = redis.master().commandStats();
        double redisCpu = redis.cpuSeconds();
        return new Snapshot(System.nanoTime(), cpuNanosByThread(), allocated(), commands, redisCpu, hostBusyNanos());
    }

    /** JVM counters first, then Redis, for the same reason as {@link #before}. */
    static Snapshot after(Topology redis) {
        long nanos = System.nanoTime();
        Map<Long, Long> cpu = cpuNanosByThread();
        Map<Long, Long> allocated = allocated();
        long host = hostBusyNanos();
        return new Snapshot(nanos, cpu, allocated, redis.master().commandStats(), redis.cpuSeconds(), host);
    }

    /** Bytes allocated by every thread between two snapshots; a thread born in between counts in full. */
    static long allocatedBetween(Snapshot start, Snapshot end) {
        return sumOfIncreases(start.allocatedBytesByThread, end.allocatedBytesByThread);
    }

    private static Map<Long, Long> allocated() {
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        Map<Long, Long> byThread = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                byThread.put(ids[i], bytes[i]);
            }
        }
        return byThread;
    }

    private static final Path HOST_STAT = Path.of("/proc/stat");
    /** USER_HZ, the unit of /proc/stat: 100 on every Linux architecture Java runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    /**
     * user + nice + system + irq + softirq + steal of the first ("cpu") line: time the host's CPUs were not
     * available to an idle machine. With the JVM's and Redis's own CPU taken off, what remains is interference.
     */
    private static long hostBusyNanos() {
        try {
            String[] f = Files.readAllLines(HOST_STAT).get(0).trim().split("\\s+");
            long busy = Long.parseLong(f[1])
                    + Long.parseLong(f[2])
                    + Long.parseLong(f[3])
                    + Long.parseLong(f[6])
                    + Long.parseLong(f[7])
                    + (f.length > 8 ? Long.parseLong(f[8]) : 0);
            return busy * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
