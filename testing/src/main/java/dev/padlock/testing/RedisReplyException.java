package dev.padlock.testing;

/** An error reply ({@code -ERR ...}) from Redis to a command sent by the harness. */
public final class RedisReplyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RedisReplyException(String reply) {
        super(reply);
    }
}
