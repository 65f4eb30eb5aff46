package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code CompletionStage} or {@code Uni} method locked on a key that the blocking call it is nested in holds cannot
 * share that hold (its result may complete after the enclosing call released the key) and must not wait for it (it
 * would wait for its own caller). It is refused at once, and the refusal is reported as the misuse it is, not as
 * contention: a {@code LockException} that is not a {@code LockNotAcquiredException}, whose message does not speak of
 * a wait, and which the meters do not count as {@code not_acquired}. (The "misuse reported as contention".)
 *
 * <p>The control: the same methods finding the key held by another caller are contention, reported and counted so.
 */
@ExtendWith(RedisExtension.class)
class NestedAsyncRefusalTest {

    private static final String LOCK = "nested-async";

    public static class Registry {
        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    @ApplicationScoped
    public static class Seats {
        @Locked(value = LOCK, key = "{id}")
        public <T> T hold(String id, Supplier<T> body) {
            return body.get();
        }

        @Locked(value = LOCK, key = "{id}", waitTime = "30s")
        public CompletionStage<String> stage(String id) {
            return CompletableFuture.completedFuture("ran");
        }

        @Locked(value = LOCK, key = "{id}", waitTime = "30s")
        public Uni<String> uni(String id) {
            return Uni.createFrom().item("ran");
        }

        @Locked(value = LOCK, key = "{id}", waitTime = "0")
        public CompletionStage<String> stageNow(String id) {
            return CompletableFuture.completedFuture("ran");
        }

        @Locked(value = LOCK, key = "{id}", waitTime = "0")
        public Uni<String> uniNow(String id) {
            return Uni.createFrom().item("ran");
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
    void aStageNestedInABlockingCallOfTheSameKeyIsRefusedAsMisuseNotContention(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Seats seats = app.bean(Seats.class);

            Throwable refused = seats.hold(
                    "k",
                    () -> failure(() -> seats.stage("k").toCompletableFuture().get(10, TimeUnit.SECONDS)));

            assertRefusedAsMisuse(refused);
        }
    }

    @Test
    void aUniNestedInABlockingCallOfTheSameKeyIsRefusedAsMisuseNotContention(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Seats seats = app.bean(Seats.class);

            Throwable refused = seats.hold(
                    "k",
                    () -> failure(
                            () -> seats.uni("k").subscribeAsCompletionStage().get(10, TimeUnit.SECONDS)));

            assertRefusedAsMisuse(refused);
        }
    }

    @Test
    void aRefusedNestedCallIsNotCountedAsNotAcquired(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Seats seats = app.bean(Seats.class);
            MeterRegistry registry = app.bean(SimpleMeterRegistry.class);

            List<Throwable> refused = seats.hold(
                    "k",
                    () -> Arrays.asList(
                            failure(() -> seats.stage("k").toCompletableFuture().get(10, TimeUnit.SECONDS)),
                            failure(() ->
                                    seats.uni("k").subscribeAsCompletionStage().get(10, TimeUnit.SECONDS))));

            assertThat(refused).as("both nested calls refused").doesNotContainNull();
            assertThat(acquisitions(registry, "not_acquired"))
                    .as("refusals counted as not acquired (the refusals: %s)", refused)
                    .isZero();
        }
    }

    /** The control: a stage or a Uni that finds the key held by another caller is contention, and counted so. */
    @Test
    void controlAStageOrUniThatFindsTheKeyHeldByAnotherCallerIsContention(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Seats seats = app.bean(Seats.class);
            MeterRegistry registry = app.bean(SimpleMeterRegistry.class);
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Future<Boolean> holder = threads.submit(() -> seats.hold("k", () -> {
                inside.countDown();
                try {
                    return release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
            assertThat(inside.await(10, TimeUnit.SECONDS))
                    .as("the holder entered")
                    .isTrue();

            Throwable stage =
                    failure(() -> seats.stageNow("k").toCompletableFuture().get(10, TimeUnit.SECONDS));
            Throwable uni =
                    failure(() -> seats.uniNow("k").subscribeAsCompletionStage().get(10, TimeUnit.SECONDS));
            release.countDown();
            assertThat(holder.get(10, TimeUnit.SECONDS)).isTrue();

            assertThat(List.of(stage, uni)).allSatisfy(contention -> assertThat(contention)
                    .isInstanceOf(LockNotAcquiredException.class)
                    .hasMessageContaining("not acquired within"));
            assertThat(acquisitions(registry, "not_acquired")).isEqualTo(2);
        }
    }

    private static Deployment start(RedisServer redis) {
        return Deployment.start(Map.of("padlock.redis.address", redis.uri()), Seats.class, Registry.class);
    }

    private static void assertRefusedAsMisuse(Throwable refused) {
        assertThat(refused)
                .as("a nested call that cannot share its caller's hold")
                .isInstanceOf(LockException.class)
                .isNotInstanceOf(LockNotAcquiredException.class);
        assertThat(refused.getMessage()).as("it waited for nothing").doesNotContain("not acquired within");
    }

    interface Call {
        Object run() throws Exception;
    }

    /** What the call failed with, unwrapped from the future's wrapper; {@code null} if it completed. */
    private static Throwable failure(Call call) {
        Throwable thrown = catchThrowable(call::run);
        return thrown instanceof ExecutionException || thrown instanceof CompletionException
                ? thrown.getCause()
                : thrown;
    }

    private static long acquisitions(MeterRegistry registry, String outcome) {
        return registry.find("padlock.lock.acquire").tags("lock", LOCK, "outcome", outcome).timers().stream()
                .mapToLong(Timer::count)
                .sum();
    }
}
