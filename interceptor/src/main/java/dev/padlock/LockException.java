package dev.padlock;

/**
 * Base of the exceptions Padlock raises itself when a {@link Locked} call cannot run or complete as locked:
 * {@link LockNotAcquiredException} (the lock was not taken, the method did not run), {@link LockLostException}
 * (a lock was lost while the method ran: after the method with {@code on-lease-lost=throw}, or from
 * {@link LockContext#checkHeld()}), and this class itself for a call that cannot be locked at all: a key template
 * that cannot be rendered from the arguments, a blocking method called on an event-loop thread, or a method the
 * container did not announce at deployment that breaks a rule of {@link Locked} when it is first called.
 *
 * <p>Not everything a locked call throws is one: the method's own exceptions reach the caller unchanged; a
 * failure of the Redis client that Padlock did not expect (for instance a client shut down under the call) can
 * reach it as the client's own {@code RuntimeException}, or wrapped in an {@code IllegalStateException}; and
 * {@link LockContext} used outside a call throws {@code IllegalStateException}.
 */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what happened to which lock and method, and what to do about it */
    public LockException(String message) {
        super(message);
    }

    /**
     * @param message what happened to which lock and method, and what to do about it
     * @param cause the failure behind it, e.g. the exception of a getter a key template reads
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * For failures expected often enough that a stack trace is noise, such as contention.
     *
     * @param message what happened to which lock and method, and what to do about it
     * @param cause the failure behind it, or {@code null}
     * @param writableStackTrace false to skip filling in the stack trace
     */
    protected LockException(String message, Throwable cause, boolean writableStackTrace) {
        super(message, cause, true, writableStackTrace);
    }
}
