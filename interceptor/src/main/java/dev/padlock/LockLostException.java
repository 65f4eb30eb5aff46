package dev.padlock;

import dev.padlock.core.DurationText;
import java.time.Duration;

/**
 * The lock of a {@link Locked} method was no longer held when the method finished: its lease expired or
 * its renewal failed while the method ran, so another caller may have run at the same time.
 */
public class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    private final String lockKey;
    private final String method;
    private final Duration heldFor;

    public LockLostException(String lockKey, String method, Duration heldFor, Throwable cause) {
        super(
                "Lock " + lockKey + " for " + method + " was lost while the method ran (found after "
                        + DurationText.format(heldFor)
                        + "): its lease expired or could not be renewed; another caller may have held it meanwhile."
                        + " Use a longer lease-time, or no lease-time so the watchdog renews it.",
                cause);
        this.lockKey = lockKey;
        this.method = method;
        this.heldFor = heldFor;
    }

    public String getLockKey() {
        return lockKey;
    }

    public String getMethod() {
        return method;
    }

    /** How long after acquisition the loss was found. */
    public Duration getHeldFor() {
        return heldFor;
    }
}
