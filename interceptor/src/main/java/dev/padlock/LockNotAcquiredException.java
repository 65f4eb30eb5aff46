package dev.padlock;

import java.time.Duration;

/**
 * The lock of a {@link Locked} method was not acquired, so the method did not run. Contention is expected
 * and frequent, so this exception carries no stack trace unless it has a cause (Redis unreachable,
 * interrupted caller).
 */
public class LockNotAcquiredException extends LockException {
    private static final long serialVersionUID = 1L;

    private final String lockKey;
    private final String method;
    private final Duration waited;

    public LockNotAcquiredException(String lockKey, String method, Duration waited, String reason, Throwable cause) {
        super(
                "Lock " + lockKey + " for " + method + " not acquired within " + Durations.format(waited) + ": "
                        + reason,
                cause,
                cause != null);
        this.lockKey = lockKey;
        this.method = method;
        this.waited = waited;
    }

    /** The Redis key of the lock, e.g. {@code padlock:stock:A-42}. */
    public String getLockKey() {
        return lockKey;
    }

    /** The intercepted method, as {@code com.acme.Inventory#reserve(String, int)}. */
    public String getMethod() {
        return method;
    }

    /** The configured wait that ran out, or how long the caller waited before it was interrupted. */
    public Duration getWaited() {
        return waited;
    }
}
