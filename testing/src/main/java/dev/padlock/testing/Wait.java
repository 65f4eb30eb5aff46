package dev.padlock.testing;

import java.time.Duration;
import java.util.function.Supplier;

/** Bounded polling: every wait in the harness ends, and when it ends badly it says what it waited for. */
final class Wait {
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    // Short enough that a single server is usable within a few polls of coming up.
    static final long POLL_MILLIS = 20;

    @FunctionalInterface
    interface Probe<T> {
        /** The awaited value, or null while it is not there yet. */
        T poll() throws Exception;
    }

    private Wait() {}

    static <T> T until(String what, Probe<T> probe, Supplier<String> diagnostics) {
        return until(what, TIMEOUT, probe, diagnostics);
    }

    static <T> T until(String what, Duration timeout, Probe<T> probe, Supplier<String> diagnostics) {
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

    static void sleep(String what) {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + what, e);
        }
    }
}
