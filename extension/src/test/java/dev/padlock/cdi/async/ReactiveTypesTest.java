package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mutiny.zero.flow.adapters.AdaptersToFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Mutiny {@code Uni}/{@code Multi} and {@code Publisher} results hold their lock from subscription until they
 * complete, fail or are cancelled: a concurrent caller cannot enter meanwhile, and one never subscribed takes no
 * lock. The second caller's refusal is the control: with the lock released at method return it would get in.
 */
@ExtendWith(RedisExtension.class)
class ReactiveTypesTest {

    @ApplicationScoped
    public static class Streams {
        private final AtomicInteger bodies = new AtomicInteger();

        public int bodies() {
            return bodies.get();
        }

        @Locked(value = "uni", waitTime = "0")
        public Uni<String> uni(CompletableFuture<String> work) {
            bodies.incrementAndGet();
            return Uni.createFrom().completionStage(work);
        }

        @Locked(value = "uni", waitTime = "0", onFailure = OnFailure.SKIP)
        public Uni<String> uniOrSkip() {
            return Uni.createFrom().item("ran");
        }

        @Locked(value = "multi", waitTime = "0")
        public Multi<Integer> multi(CompletableFuture<Integer> last) {
            bodies.incrementAndGet();
            return Multi.createFrom()
                    .items(1, 2)
                    .onCompletion()
                    .switchTo(Multi.createFrom().completionStage(last));
        }

        @Locked(value = "multi", waitTime = "0", onFailure = OnFailure.SKIP)
        public Multi<Integer> multiOrSkip() {
            return Multi.createFrom().items(9);
        }

        @Locked(value = "flow", waitTime = "0")
        public Flow.Publisher<Integer> flow(CompletableFuture<Integer> last) {
            return Multi.createFrom().completionStage(last);
        }

        @Locked(value = "rs", waitTime = "0")
        public org.reactivestreams.Publisher<Integer> reactiveStreams(CompletableFuture<Integer> last) {
            return mutiny.zero.flow.adapters.AdaptersToReactiveStreams.publisher(
                    Multi.createFrom().completionStage(last));
        }
    }

    private static Deployment start(RedisServer redis) {
        // A short watchdog lease, so that a cancelled call's lock lapses within the test.
        return Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", "2s"), Streams.class);
    }

    private static boolean held(RedisServer redis, String name) throws InterruptedException {
        return eventually(() -> Long.valueOf(1).equals(redis.command("EXISTS", "padlock:" + name)));
    }

    private static boolean released(RedisServer redis, String name) throws InterruptedException {
        return eventually(() -> Long.valueOf(0).equals(redis.command("EXISTS", "padlock:" + name)));
    }

    private static boolean eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(25);
        }
        return false;
    }

    @Test
    void aUniHoldsItsLockUntilItEmitsAndReleasesBeforeTheItemArrives(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Streams streams = app.bean(Streams.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<String> first = streams.uni(work).subscribeAsCompletionStage();
            assertThat(held(redis, "uni")).isTrue();

            Throwable second = catchThrowable(() -> streams.uni(new CompletableFuture<>())
                    .subscribeAsCompletionStage()
                    .get(10, TimeUnit.SECONDS));
            assertThat(second)
                    .as("a concurrent caller cannot enter while the Uni runs")
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(LockNotAcquiredException.class);
            assertThat(streams.uniOrSkip().await().atMost(java.time.Duration.ofSeconds(10)))
                    .as("SKIP emits null")
                    .isNull();

            work.complete("done");
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(redis.command("EXISTS", "padlock:uni"))
                    .as("released before the item")
                    .isEqualTo(0L);
            assertThat(streams.uniOrSkip().await().atMost(java.time.Duration.ofSeconds(10)))
                    .isEqualTo("ran");
        }
    }

    @Test
    void aUniNeverSubscribedTakesNoLockAndEachSubscriptionIsACall(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Streams streams = app.bean(Streams.class);
            // Every command the server runs goes to the slow log; none may name the lock before subscription.
            redis.command("CONFIG", "SET", "slowlog-log-slower-than", "0");
            redis.command("CONFIG", "SET", "slowlog-max-len", "1000");
            redis.command("SLOWLOG", "RESET");
            Uni<String> uni = streams.uni(CompletableFuture.completedFuture("x"));
            Thread.sleep(200);
            assertThat(redis.command("SLOWLOG", "GET", "1000").toString())
                    .as("no command for the lock before subscription")
                    .doesNotContain("padlock:uni");
            redis.command("CONFIG", "SET", "slowlog-log-slower-than", "10000");
            assertThat(streams.bodies())
                    .as("the method runs on subscription, under the lock")
                    .isZero();

            assertThat(uni.await().atMost(java.time.Duration.ofSeconds(10))).isEqualTo("x");
            assertThat(uni.await().atMost(java.time.Duration.ofSeconds(10))).isEqualTo("x");
            assertThat(streams.bodies()).isEqualTo(2);
        }
    }

    @Test
    void aFailedUniReleasesAndACancelledOneLapses(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Streams streams = app.bean(Streams.class);
            CompletableFuture<String> failing = new CompletableFuture<>();
            CompletableFuture<String> result = streams.uni(failing).subscribeAsCompletionStage();
            assertThat(held(redis, "uni")).isTrue();
            failing.completeExceptionally(new IllegalStateException("boom"));
            assertThat(catchThrowable(() -> result.get(10, TimeUnit.SECONDS)))
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(redis.command("EXISTS", "padlock:uni")).isEqualTo(0L);

            int bodies = streams.bodies();
            Cancellable subscription =
                    streams.uni(new CompletableFuture<>()).subscribe().with(item -> {});
            assertThat(eventually(() -> streams.bodies() > bodies))
                    .as("the method runs")
                    .isTrue();
            subscription.cancel();
            // Nothing more is heard of the method's work, which may go on: not released, but no longer renewed.
            assertThat(redis.command("EXISTS", "padlock:uni"))
                    .as("cancellation does not release")
                    .isEqualTo(1L);
            assertThat(released(redis, "uni"))
                    .as("the lock lapses with its lease")
                    .isTrue();
        }
    }

    @Test
    void aMultiHoldsItsLockUntilItCompletes(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Streams streams = app.bean(Streams.class);
            CompletableFuture<Integer> last = new CompletableFuture<>();
            CompletableFuture<List<Integer>> items =
                    streams.multi(last).collect().asList().subscribeAsCompletionStage();
            assertThat(held(redis, "multi")).isTrue();
            assertThat(catchThrowable(() -> streams.multi(CompletableFuture.completedFuture(0))
                            .collect()
                            .asList()
                            .await()
                            .atMost(java.time.Duration.ofSeconds(10))))
                    .as("a concurrent caller cannot enter while the Multi streams")
                    .isInstanceOf(LockNotAcquiredException.class);
            assertThat(streams.multiOrSkip().collect().asList().await().atMost(java.time.Duration.ofSeconds(10)))
                    .as("SKIP is empty")
                    .isEmpty();

            last.complete(3);
            assertThat(items.get(10, TimeUnit.SECONDS)).containsExactly(1, 2, 3);
            assertThat(redis.command("EXISTS", "padlock:multi")).isEqualTo(0L);

            int bodies = streams.bodies();
            Cancellable subscription =
                    streams.multi(new CompletableFuture<>()).subscribe().with(item -> {});
            assertThat(eventually(() -> streams.bodies() > bodies))
                    .as("the method runs")
                    .isTrue();
            subscription.cancel();
            // Nothing more is heard of the method's work, which may go on: not released, but no longer renewed.
            assertThat(redis.command("EXISTS", "padlock:multi"))
                    .as("cancellation does not release")
                    .isEqualTo(1L);
            assertThat(released(redis, "multi"))
                    .as("the lock lapses with its lease")
                    .isTrue();
        }
    }

    @Test
    void publishersHoldTheirLockUntilTheyComplete(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Streams streams = app.bean(Streams.class);
            CompletableFuture<Integer> flowLast = new CompletableFuture<>();
            CompletableFuture<List<Integer>> flowItems = Multi.createFrom()
                    .publisher(streams.flow(flowLast))
                    .collect()
                    .asList()
                    .subscribeAsCompletionStage();
            assertThat(held(redis, "flow")).isTrue();
            flowLast.complete(7);
            assertThat(flowItems.get(10, TimeUnit.SECONDS)).containsExactly(7);
            assertThat(redis.command("EXISTS", "padlock:flow")).isEqualTo(0L);

            CompletableFuture<Integer> rsLast = new CompletableFuture<>();
            CompletableFuture<List<Integer>> rsItems = Multi.createFrom()
                    .publisher(AdaptersToFlow.publisher(streams.reactiveStreams(rsLast)))
                    .collect()
                    .asList()
                    .subscribeAsCompletionStage();
            assertThat(held(redis, "rs")).isTrue();
            rsLast.complete(8);
            assertThat(rsItems.get(10, TimeUnit.SECONDS)).containsExactly(8);
            assertThat(redis.command("EXISTS", "padlock:rs")).isEqualTo(0L);
        }
    }
}
