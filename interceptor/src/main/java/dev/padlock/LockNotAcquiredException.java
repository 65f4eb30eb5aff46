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

    /**
     * The message reads {@code Lock <lockKey> for <method> not acquired within <waited>: <reason>}.
     *
     * @param lockKey the Redis key that was not acquired, e.g. {@code padlock:stock:A-42}
     * @param method the intercepted method, as {@code com.acme.Inventory#reserve(String, int)}
     * @param waited the lock's configured wait time, also when the call failed sooner (an interrupted caller, an
     *     unreachable Redis)
     * @param reason why, ending the message: e.g. {@code it is held by another caller}, {@code no connection to
     *     Redis could be made}, {@code the calling thread was interrupted}
     * @param cause the failure behind it (Redis's error, an {@code InterruptedException}), or {@code null} for plain
     *     contention; the stack trace is filled in only when there is a cause
     */
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

    /**
     * The lock's configured wait time: the wait that ran out, or, when the call failed sooner (an interrupted
     * caller, an unreachable Redis), the wait it was allowed.
     */
    public Duration getWaited() {
        return waited;
    }
}
