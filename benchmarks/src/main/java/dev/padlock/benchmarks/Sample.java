package dev.padlock.benchmarks;

import dev.padlock.testing.CommandStats;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** What one pass of one side measured. */
final class Sample {

    /** Redisson's connection keep-alive, sent on a timer whatever the workload: not a cost of a call. */
    static final String KEEP_ALIVE = "ping";

    /**
     * A replica's acknowledgement ({@code REPLCONF ACK}), which the master asks for when a client's {@code WAIT} is
     * pending: the replica's traffic, not a client's round trip, and shared by every {@code WAIT} of one event-loop
     * turn, so it varies with the load rather than with the calls. Left out of the per-call count, shown in the mix.
     */
    static final String REPLICA_ACK = "replconf";

    final long ops;
    final long nanos;
    final Histogram latencyNanos;
    final long cpuNanos;
    final long allocatedBytes;
    final CommandStats commands;
    final double redisCpuSeconds;
    final long overlaps;
    /** CPU the rest of the host used meanwhile (not this JVM, not Redis), in ns; -1 where unknown. */
    final long foreignCpuNanos;

    Sample(
            long ops,
            long nanos,
            Histogram latencyNanos,
            long cpuNanos,
            long allocatedBytes,
            CommandStats commands,
            double redisCpuSeconds,
            long overlaps,
            long foreignCpuNanos) {
        this.ops = ops;
        this.nanos = nanos;
        this.latencyNanos = latencyNanos;
        this.cpuNanos = cpuNanos;
        this.allocatedBytes = allocatedBytes;
        this.commands = commands;
        this.redisCpuSeconds = redisCpuSeconds;
        this.overlaps = overlaps;
        this.foreignCpuNanos = foreignCpuNanos;
    }

    /**
     * How many cores other processes kept busy during the pass, on average; 0 where unknown. Tick-based host
     * accounting against nanosecond process clocks leaves a few hundredths of noise.
     */
    double foreignCores() {
        return foreignCpuNanos < 0 ? 0 : (double) foreignCpuNanos / nanos;
    }

    double opsPerSecond() {
        return ops * 1e9 / nanos;
    }

    double p50Micros() {
        return latencyNanos.getValueAtPercentile(50) / 1e3;
    }

    double p99Micros() {
        return latencyNanos.getValueAtPercentile(99) / 1e3;
    }

    /** JVM CPU (every thread: callers, Netty event loops, timers, GC) per operation. */
    double cpuMicrosPerOp() {
        return cpuNanos / 1e3 / ops;
    }

    double allocatedBytesPerOp() {
        return (double) allocatedBytes / ops;
    }

    /**
     * Commands Redis ran per operation (script-internal calls included, as INFO commandstats counts them), those the
     * clients' calls made: keep-alive PINGs and a replica's acknowledgements left out.
     */
    double commandsPerOp() {
        return callCommands(commands) / (double) ops;
    }

    /** What {@link #commandsPerOp()} counts, of {@code commands}. */
    static long callCommands(CommandStats commands) {
        return commands.total() - commands.calls(KEEP_ALIVE) - commands.calls(REPLICA_ACK);
    }

    /** Per command, calls per operation, keep-alive left out. */
    Map<String, Double> commandMixPerOp() {
        Map<String, Double> mix = new TreeMap<>();
        commands.asMap().forEach((command, calls) -> {
            if (!command.equals(KEEP_ALIVE)) {
                mix.put(command, calls / (double) ops);
            }
        });
        return mix;
    }

    double redisCpuMicrosPerOp() {
        return redisCpuSeconds * 1e6 / ops;
    }
}
