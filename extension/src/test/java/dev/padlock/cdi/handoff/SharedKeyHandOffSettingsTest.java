package dev.padlock.cdi.handoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Finding E3 of engine review 2: two lock names that reach one Redis key ({@code e3} with {@code {id}} and
 * {@code e3:42}) may have different hand-off settings, as the configuration reference allows. A call of one name queued behind a call
 * of the other must then still run once the holder leaves, within its wait time, and the key must stay usable in the
 * application afterwards: the holder hands the key on, or unlocks it for the queued call to ask Redis.
 *
 * <p>{@code keyed("42")} holds {@code padlock:e3:42} until {@code plain()} is queued behind it, then returns.
 * {@code plain()} has a wait time of 3 s and is given 8 s to answer; then {@code keyed("42")} is called again. The
 * control runs the same with the same hand-off settings for both names.
 */
@ExtendWith(RedisExtension.class)
class SharedKeyHandOffSettingsTest {

    @ApplicationScoped
    public static class Shelf {
        @Locked(value = "e3", key = "{id}", waitTime = "3s")
        public String keyed(String id, Runnable body) {
            body.run();
            return "ran";
        }

        @Locked(value = "e3:42", waitTime = "3s")
        public String plain() {
            return "ran";
        }
    }

    /** A thread per caller: the common pool may have a single thread on a small machine. */
    private ExecutorService threads;

    @BeforeEach
    void reset(RedisServer redis) {
        threads = Executors.newCachedThreadPool();
        redis.flushAll();
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void aCallOfAnotherNameForTheSameKeyRunsAfterTheHolderLeaves(RedisServer redis) throws Exception {
        Map<String, String> config = config(redis);
        config.put("padlock.locks.\"e3:42\".hand-off-limit", "0");

        assertThat(queueBehindTheOtherName(config)).isEqualTo("plain(): ran; then keyed(\"42\"): ran");
    }

    /** The control: with the same hand-off settings for both names, the key is handed from one to the other. */
    @Test
    void controlWithTheSameHandOffSettingsTheQueuedCallRuns(RedisServer redis) throws Exception {
        assertThat(queueBehindTheOtherName(config(redis))).isEqualTo("plain(): ran; then keyed(\"42\"): ran");
    }

    private static Map<String, String> config(RedisServer redis) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", redis.uri());
        // keyed's hand-off is on however long it holds while plain() queues
        config.put("padlock.hand-off-budget", "10s");
        return config;
    }

    /** What became of {@code plain()} queued behind {@code keyed("42")}, and of {@code keyed("42")} after it. */
    private String queueBehindTheOtherName(Map<String, String> config) throws Exception {
        try (Deployment app = Deployment.start(config, Shelf.class)) {
            Shelf shelf = app.bean(Shelf.class);
            PadlockEngine engine = app.bean(PadlockEngine.class);
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);

            Future<String> holder = threads.submit(() -> shelf.keyed("42", () -> {
                inside.countDown();
                Waits.await(release);
            }));
            assertThat(inside.await(10, TimeUnit.SECONDS))
                    .as("keyed(\"42\") entered")
                    .isTrue();
            Future<String> queued = threads.submit(shelf::plain);
            Waits.until(
                    () -> engine.liveLocks().queues().stream().anyMatch(queue -> queue.waiting() == 1),
                    "plain() queued behind keyed(\"42\")");
            release.countDown();
            assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("ran");

            String plain = outcome(queued);
            String again = outcome(threads.submit(() -> shelf.keyed("42", () -> {})));
            return "plain(): " + plain + "; then keyed(\"42\"): " + again;
        }
    }

    /** {@code ran}, what the call threw, or that it did not answer within 8 s (it is interrupted then). */
    private static String outcome(Future<String> call) throws InterruptedException {
        try {
            return call.get(8, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause().toString();
        } catch (TimeoutException e) {
            call.cancel(true);
            return "no answer within 8 s (waitTime 3 s)";
        }
    }
}
