package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;

/**
 * Several key templates lock all their keys, taken in sorted order: two threads moving stock a->b and b->a
 * at the same time never deadlock. With a 2 s wait a deadlock would surface as LockNotAcquiredException.
 */
@ExtendWith(RedisExtension.class)
class MultiKeyTest {

    /**
     * A thread per direction: CompletableFuture's default pool may have only one thread (JDK 25 on a 2-core machine),
     * and would then run the two directions one after the other, where no deadlock can happen.
     */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @ApplicationScoped
    public static class Stock {
        final AtomicInteger held = new AtomicInteger();

        @Inject
        RedissonClient redisson;

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
            List<String> keys = new ArrayList<>();
            redisson.getKeys().getKeysByPattern("padlock:stock:*").forEach(keys::add);
            return keys;
        }

        public int transfers() {
            return held.get();
        }
    }

    @Test
    void holdsEveryKeyAtOnce(RedisServer server) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Stock.class)) {
            assertThat(app.bean(Stock.class).keysWhileHeld("b", "a"))
                    .asList()
                    .containsExactlyInAnyOrder("padlock:stock:a", "padlock:stock:b");
        }
    }

    @Test
    void oppositeOrdersNeverDeadlock(RedisServer server) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Stock.class)) {
            Stock stock = app.bean(Stock.class);
            int rounds = 300;
            CountDownLatch bothStarted = new CountDownLatch(2);
            CompletableFuture<Void> ab =
                    CompletableFuture.runAsync(() -> transfers(stock, "a", "b", rounds, bothStarted), threads);
            CompletableFuture<Void> ba =
                    CompletableFuture.runAsync(() -> transfers(stock, "b", "a", rounds, bothStarted), threads);
            CompletableFuture.allOf(ab, ba).get(2, TimeUnit.MINUTES);
            assertThat(stock.transfers()).isEqualTo(2 * rounds);
            assertThat(server.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** Moves stock {@code rounds} times, once the other direction has started too, so the two really overlap. */
    private static void transfers(Stock stock, String from, String to, int rounds, CountDownLatch bothStarted) {
        bothStarted.countDown();
        try {
            if (!bothStarted.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "the other direction did not start within 30 s: the two would run one after the other");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < rounds; i++) {
            stock.transfer(from, to);
        }
    }
}
