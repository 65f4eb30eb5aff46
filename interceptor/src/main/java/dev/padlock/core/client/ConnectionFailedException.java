package dev.padlock.core.client;

/**
 * Padlock's own client could not connect: the message says where to, why ({@link ConnectionFailure}) and which keys
 * to check, never with a password; the cause is what Redisson threw.
 */
public final class ConnectionFailedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final transient ConnectionFailure failure;

    ConnectionFailedException(String where, ConnectionFailure failure, Throwable cause) {
        super(failure.message(where), cause);
        this.failure = failure;
    }

    /** The same failure, thrown anew on a caller's thread (with that caller's stack). */
    ConnectionFailedException(ConnectionFailedException failed) {
        super(failed.getMessage(), failed.getCause());
        this.failure = failed.failure;
    }

    public ConnectionFailure failure() {
        return failure;
    }
}
