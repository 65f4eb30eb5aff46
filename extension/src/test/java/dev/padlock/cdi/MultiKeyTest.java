package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several key templates lock all their keys, taken in sorted order: two threads moving stock a->b and b->a
 * at the same time never deadlock. With a 2 s wait a deadlock would surface as LockNotAcquiredException.
 */
@ExtendWith(RedisExtension.class)
class MultiKeyTest {

    static RedisServer redis;

    @ApplicationScoped
    public static class Stock {
        final AtomicInteger held = new AtomicInteger();

        @Locked(
                value = "stock",
                key = {"{from}", "{to}"},
                waitTime = "2s")
        public void transfer(String from, String to) {
            held.incrementAndGet();
        }

        @Locked(
                value = "stock",
                key = {"{from}", "{to}"})
        public Object keysWhileHeld(String from, String to) {
            return redis.command("KEYS", "padlock:stock:*");
        }

        public int transfers() {
            return held.get();
        }
    }

    @Test
    void holdsEveryKeyAtOnce(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Stock.class)) {
            assertThat(app.bean(Stock.class).keysWhileHeld("b", "a"))
                    .asList()
                    .containsExactlyInAnyOrder("padlock:stock:a", "padlock:stock:b");
        }
    }

    @Test
    void oppositeOrdersNeverDeadlock(RedisServer server) throws Exception {
        redis = server;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Stock.class)) {
            Stock stock = app.bean(Stock.class);
            int rounds = 300;
            CompletableFuture<Void> ab = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < rounds; i++) {
                    stock.transfer("a", "b");
                }
            });
            CompletableFuture<Void> ba = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < rounds; i++) {
                    stock.transfer("b", "a");
                }
            });
            CompletableFuture.allOf(ab, ba).get(2, TimeUnit.MINUTES);
            assertThat(stock.transfers()).isEqualTo(2 * rounds);
            assertThat(server.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }
}
