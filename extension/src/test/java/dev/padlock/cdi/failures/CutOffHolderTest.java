package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.core.engine.EngineOptions;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A holder cut off from Redis (a partition, as its client sees it) cannot be told by Redis that its lease ran out,
 * but it knows when it must: it reports the loss at its local deadline, before Redis can grant the key to another
 * application. Each repetition compares, on this JVM's monotonic clock, when the holder's {@link LockLost} observer
 * ran and when the other application's method began.
 */
@ExtendWith(RedisExtension.class)
class CutOffHolderTest {

    /** Monotonic times, by key: when the holder heard of its loss, and when the other application entered. */
    static final Map<String, Long> LOSS_SEEN = new ConcurrentHashMap<>();

    static final Map<String, Long> ENTERED = new ConcurrentHashMap<>();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "cut", key = "{0}", waitTime = "30s")
        public String hold(String key, CountDownLatch release) throws InterruptedException {
            release.await(60, TimeUnit.SECONDS);
            return "held";
        }

        @Locked(value = "cut", key = "{0}", waitTime = "30s")
        public String enter(String key) {
            ENTERED.put(key, System.nanoTime());
            return "entered";
        }
    }

    @ApplicationScoped
    public static class Losses {
        void record(@Observes LockLost loss) {
            LOSS_SEEN.putIfAbsent(loss.lockKey().substring("padlock:cut:".length()), System.nanoTime());
        }
    }

    @Test
    void theCutOffHolderHearsOfItsLossBeforeAnotherApplicationEnters(RedisServer redis, RedisProxy proxy)
            throws Exception {
        List<String> late = run(
                redis, proxy, 5, EngineOptions.DEFAULTS); // one cut at each of the five points of the renewal period
        assertThat(late)
                .as("repetitions in which the other application entered first")
                .isEmpty();
    }

    /** The control: without the deadline, the holder hears of its loss only after the other application entered. */
    @Test
    void withoutTheDeadlineTheHolderHearsOfItLate(RedisServer redis, RedisProxy proxy) throws Exception {
        List<String> late = run(redis, proxy, 3, EngineOptions.DEFAULTS.withoutLossAtDeadline());
        assertThat(late).as("late repetitions").isNotEmpty();
    }

    /** Returns the repetitions in which the loss was heard of late, or not before the holder returned. */
    /** {@code options}: the holder application's engine rules. */
    private static List<String> run(RedisServer redis, RedisProxy proxy, int repetitions, EngineOptions options)
            throws Exception {
        redis.flushAll();
        LOSS_SEEN.clear();
        ENTERED.clear();
        List<String> late = new ArrayList<>();
        try (Deployment holderApp = Deployment.start(null, config(proxy.uri()), options, Work.class, Losses.class);
                Deployment otherApp = Deployment.start("other", config(redis.uri()), Work.class)) {
            Work holder = holderApp.bean(Work.class);
            Work other = otherApp.bean(Work.class);
            for (int i = 0; i < repetitions; i++) {
                String key = "k" + i;
                CountDownLatch release = new CountDownLatch(1);
                CompletableFuture<String> holding =
                        CompletableFuture.supplyAsync(() -> call(() -> holder.hold(key, release)));
                try {
                    for (int p = 0; p < 250 && (Long) redis.command("EXISTS", "padlock:cut:" + key) == 0; p++) {
                        Thread.sleep(20);
                    }
                    Thread.sleep(100 + 150L * (i % 5)); // cut at different points of the renewal period
                    proxy.cut();
                    assertThat(other.enter(key)).isEqualTo("entered");
                } finally {
                    proxy.restore();
                    release.countDown();
                }
                holding.handle((value, failure) -> value).get(60, TimeUnit.SECONDS);
                Long seen = LOSS_SEEN.get(key);
                Long entered = ENTERED.get(key);
                if (seen != null) {
                    System.out.println("CutOffHolderTest " + key + ": loss heard of " + (entered - seen) / 1_000 + " µs"
                            + " before the other application entered");
                }
                if (seen == null || seen - entered >= 0) {
                    late.add(key
                            + (seen == null
                                    ? ": not heard of"
                                    : ": heard of " + (seen - entered) / 1_000 + " µs late"));
                }
            }
        }
        return late;
    }

    private static Map<String, String> config(String address) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", address);
        config.put("padlock.watchdog-timeout", "2s");
        return config;
    }

    @FunctionalInterface
    interface Body {
        String run() throws Exception;
    }

    private static String call(Body body) {
        try {
            return body.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
