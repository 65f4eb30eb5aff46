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

    /**
     * The reason for a locked call that got no connection: {@code no connection to Redis could be made}, followed by
     * the cause and the fix when {@code failure} comes from Padlock's own client ({@link ConnectionFailure#summary}).
     */
    public static String noConnection(Throwable failure) {
        for (Throwable t : CauseChain.links(failure)) {
            if (t instanceof ConnectionFailedException failed) {
                return "no connection to Redis could be made: "
                        + failed.failure().summary();
            }
        }
        return "no connection to Redis could be made";
    }
}
