package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A method returning a CompletionStage keeps its lock until the stage completes, fails or is cancelled, not
 * until the method returns; a second caller cannot enter meanwhile. A caller cancelling its stage cancels the
 * method's, and the lock then lapses with its lease rather than being released.
 */
@ExtendWith(RedisExtension.class)
class CompletionStageTest {

    @ApplicationScoped
    public static class Async {
        @Locked(value = "async", waitTime = "0")
        public CompletionStage<String> start(CompletableFuture<String> work) {
            return work; // the "async body" runs until the test completes it
        }
    }

    /** The release happens when the stage completes, on Redisson's threads: wait (bounded) for it. */
    private static boolean released(RedisServer redis) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (((List<?>) redis.command("KEYS", "padlock:async")).isEmpty()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Test
    void holdsUntilTheStageCompletesThenReleases(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Async.class)) {
            Async async = app.bean(Async.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletionStage<String> stage = async.start(work);

            assertThat(redis.command("EXISTS", "padlock:async"))
                    .as("held after the method returned")
                    .isEqualTo(1L);
            assertThat(catchThrowable(() -> async.start(new CompletableFuture<>())))
                    .as("a second caller cannot enter while the first stage runs")
                    .isInstanceOf(LockNotAcquiredException.class);

            work.complete("done");
            assertThat(stage.toCompletableFuture().get()).isEqualTo("done");
            assertThat(redis.command("EXISTS", "padlock:async"))
                    .as("released before the result reaches the caller")
                    .isEqualTo(0L);
            CompletableFuture<String> next = new CompletableFuture<>();
            async.start(next);
            next.complete("next");
            assertThat(released(redis)).isTrue();
        }
    }

    @Test
    void failureAndCancellationRelease(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Async.class)) {
            Async async = app.bean(Async.class);

            CompletableFuture<String> failing = new CompletableFuture<>();
            CompletionStage<String> failed = async.start(failing);
            failing.completeExceptionally(new IllegalStateException("boom"));
            // The caller hears of the outcome once the lock is released, its local turn passed on included: only
            // then can the next call (waitTime 0) count on finding the key free.
            assertThat(catchThrowable(() -> failed.toCompletableFuture().get(10, TimeUnit.SECONDS)))
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(released(redis)).isTrue();

            CompletableFuture<String> cancelled = new CompletableFuture<>();
            CompletionStage<String> ended = async.start(cancelled);
            cancelled.cancel(true);
            assertThat(catchThrowable(() -> ended.toCompletableFuture().get(10, TimeUnit.SECONDS)))
                    .isInstanceOf(java.util.concurrent.CancellationException.class);
            assertThat(released(redis)).isTrue();
        }
    }

    @Test
    void cancellingTheReturnedStageCancelsTheWorkAndTheLockLapses(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", "2s");
        try (Deployment app = Deployment.start(config, Async.class)) {
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletionStage<String> stage = app.bean(Async.class).start(work);
            assertThat(stage).as("the caller gets Padlock's stage").isNotSameAs(work);

            stage.toCompletableFuture().cancel(true);
            assertThat(work).as("the method's own stage is cancelled too").isCancelled();
            // A cancelled future says nothing of the task that would have completed it, which may still run.
            assertThat(redis.command("EXISTS", "padlock:async"))
                    .as("not released while the work may run")
                    .isEqualTo(1L);
            assertThat(released(redis))
                    .as("no longer renewed: lapses with its lease")
                    .isTrue();
        }
    }
}
