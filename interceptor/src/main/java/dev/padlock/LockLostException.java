package dev.padlock;

import java.time.Duration;

/**
 * The lock of a {@link Locked} call was lost, or could not be confirmed held, while the method ran. Thrown by
 * {@link LockContext#checkHeld()} inside the method, whatever the configuration; and, when the lock is configured
 * with {@code on-lease-lost=throw}, after the method (which has run): when the method threw itself, this is added
 * to its exception as suppressed instead. Either way the loss is also fired as a {@link LockLost} event: before
 * this is thrown after the method, on a Padlock thread (possibly later) when {@code checkHeld()} finds it.
 */
public class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    private final transient LockLost loss;

    /**
     * @param loss the loss, as fired in the {@link LockLost} event; the message is its {@link LockLost#describe()}
     *     and the cause its {@link LockLost#cause()}
     */
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
