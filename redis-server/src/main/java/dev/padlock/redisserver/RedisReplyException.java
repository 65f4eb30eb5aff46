package dev.padlock.redisserver;

/** An error reply ({@code -ERR ...}) from Redis to a command sent through a {@link RespConnection}. */
public final class RedisReplyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RedisReplyException(String reply) {
        super(reply);
    }
}
