package dev.padlock.redisserver;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Bounded polling: every wait for a server ends, and when it ends badly it says what it waited for. A probe that
 * throws a checked exception (connection refused) or a {@link RedisReplyException} (LOADING, CLUSTERDOWN) has simply
 * not seen the thing yet; any other runtime exception ends the wait at once.
 */
public final class Wait {
    /** How long {@link #until(String, Probe, Supplier)} waits: far beyond what a healthy server needs. */
    public static final Duration TIMEOUT = Duration.ofSeconds(20);
    // Short enough that a single server is usable within a few polls of coming up.
    static final long POLL_MILLIS = 20;

    /** One look at the awaited thing. */
    @FunctionalInterface
    public interface Probe<T> {
        /** The awaited value, or null while it is not there yet. */
        T poll() throws Exception;
    }

    private Wait() {}

    /** {@link #until(String, Duration, Probe, Supplier)} for up to {@link #TIMEOUT}. */
    public static <T> T until(String what, Probe<T> probe, Supplier<String> diagnostics) {
        return until(what, TIMEOUT, probe, diagnostics);
    }

    /**
     * Polls every 20 ms until {@code probe} returns a value.
     *
     * @param what what is awaited, for the message ("redis-server to answer on 127.0.0.1:6390")
     * @param diagnostics what to add to the message on a timeout (the end of a log), or an empty string
     * @throws IllegalStateException on a timeout, naming {@code what}, the last failure and the diagnostics
     */
    public static <T> T until(String what, Duration timeout, Probe<T> probe, Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception lastFailure = null;
        while (true) {
            try {
                T value = probe.poll();
                if (value != null) {
                    return value;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            } catch (RuntimeException e) {
                if (!(e instanceof RedisReplyException)) {
                    throw e;
                }
                lastFailure = e;
            } catch (Exception e) {
                // Connection refused and the like: the thing is simply not there yet.
                lastFailure = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                StringBuilder message = new StringBuilder("Timed out after ")
                        .append(
                                timeout.toMillis() % 1000 == 0
                                        ? timeout.toSeconds() + " s"
                                        : timeout.toMillis() + " ms")
                        .append(" waiting for ")
                        .append(what);
                if (lastFailure != null) {
                    message.append(" (last attempt: ").append(lastFailure).append(')');
                }
                String details = diagnostics.get();
                if (details != null && !details.isEmpty()) {
                    message.append('\n').append(details);
                }
                throw new IllegalStateException(message.toString(), lastFailure);
            }
            sleep(what);
        }
    }

    private static void sleep(String what) {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + what, e);
        }
    }
}
