package dev.padlock;

import java.time.Duration;

/**
 * The lock of a {@link Locked} call was lost, or could not be confirmed held, while the method ran, and the lock
 * is configured with {@code on-lease-lost=throw}. Thrown after the method (which has run); when the method threw
 * itself, this is added to its exception as suppressed instead. The {@link LockLost} event was fired first.
 */
public class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    private final transient LockLost loss;

    public LockLostException(LockLost loss) {
        super(loss.describe(), loss.cause());
        this.loss = loss;
    }

    /** What was lost, when and how it was found. */
    public LockLost getLoss() {
        return loss;
    }

    /** The Redis key of the lock, e.g. {@code padlock:stock:A-42}. */
    public String getLockKey() {
        return loss.lockKey();
    }

    /** The intercepted method, as {@code com.acme.Inventory#reserve(String, int)}. */
    public String getMethod() {
        return loss.method();
    }

    /** How long after acquisition the loss was found. */
    public Duration getHeldFor() {
        return loss.heldFor();
    }
}
