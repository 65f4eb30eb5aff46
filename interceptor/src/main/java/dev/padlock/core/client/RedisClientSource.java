package dev.padlock.core.client;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;

/**
 * The client the engine locks with, which may still be connecting when a call arrives. {@link #get()} waits for
 * it, for callers that may block; a caller that must not (a Vert.x event loop) takes {@link #getNow()} or goes on
 * from {@link #ready()} instead.
 */
public interface RedisClientSource extends Supplier<RedissonClient> {

    /** The client when it can be had without waiting, else {@code null} (still connecting, or not connected). */
    RedissonClient getNow();

    /**
     * Completes with the client once it is connected, or fails when it cannot be; starts a connection attempt if
     * none is under way. The future is the caller's own: completing or cancelling it concerns no other caller.
     */
    CompletableFuture<RedissonClient> ready();

    /**
     * A client that is there once looked up, such as the application's own {@code RedissonClient} bean, which
     * Padlock neither connects nor waits for.
     */
    static RedisClientSource of(Supplier<RedissonClient> client) {
        if (client instanceof RedisClientSource source) {
            return source;
        }
        return new RedisClientSource() {
            @Override
            public RedissonClient get() {
                return client.get();
            }

            @Override
            public RedissonClient getNow() {
                return client.get();
            }

            @Override
            public CompletableFuture<RedissonClient> ready() {
                try {
                    return CompletableFuture.completedFuture(client.get());
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(e);
                }
            }
        };
    }
}
