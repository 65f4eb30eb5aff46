package dev.padlock.benchmarks;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one child JVM of a multi-JVM row measured over one window, and the line it reports it in on its stdout:
 * {@code result <ops> <nanos> <overlaps> <late µs> <lost> <histogram>}, the histogram HdrHistogram's compressed encoding
 * in Base64, so that the parent merges the latencies of all JVMs call by call rather than averaging percentiles.
 *
 * @param ops calls completed in the window
 * @param nanos from the start signal until the last call returned
 * @param overlaps holders that overlapped within this JVM (must be 0 on an exclusive lock)
 * @param lateMicros how late the JVM got to the common start time (the start command arrived after it)
 * @param lost {@code LockLost} events in this JVM during the window (Padlock's side only; raw Redisson has none)
 * @param latencyNanos every call's latency
 */
record JvmWindow(long ops, long nanos, long overlaps, long lateMicros, long lost, Histogram latencyNanos) {

    /** Latencies up to a minute, to three significant digits, as in {@link Pass}. */
    static final long HIGHEST_NANOS = TimeUnit.MINUTES.toNanos(1);

    static final String PREFIX = "result ";

    String encode() {
        ByteBuffer buffer = ByteBuffer.allocate(latencyNanos.getNeededByteBufferCapacity());
        int length = latencyNanos.encodeIntoCompressedByteBuffer(buffer);
        String histogram = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
        return PREFIX + ops + " " + nanos + " " + overlaps + " " + lateMicros + " " + lost + " " + histogram;
    }

    static JvmWindow decode(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a result line: " + line);
        }
        String[] f = line.substring(PREFIX.length()).split(" ");
        try {
            Histogram latency = Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(f[5])), HIGHEST_NANOS);
            return new JvmWindow(
                    Long.parseLong(f[0]),
                    Long.parseLong(f[1]),
                    Long.parseLong(f[2]),
                    Long.parseLong(f[3]),
                    Long.parseLong(f[4]),
                    latency);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("unreadable result line: " + line, e);
        }
    }

    double opsPerSecond() {
        return ops * 1e9 / nanos;
    }
}
