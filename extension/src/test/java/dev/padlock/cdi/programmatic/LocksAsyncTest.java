package dev.padlock.cdi.programmatic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The async forms of {@code Locks} hold the lock as a {@code @Locked} method returning the same type does: a stage
 * until it completes (not until the code returned it), a {@code Uni}/{@code Multi} from subscription until it
 * terminates, and not at all before it is subscribed.
 */
@ExtendWith(RedisExtension.class)
class LocksAsyncTest {

    @ApplicationScoped
    public static class Async {
        final AtomicInteger bodies = new AtomicInteger();

        @Inject
        Locks locks;

        public Locks locks() {
            return locks;
        }

        public int bodies() {
            return bodies.get();
        }

        public CompletionStage<String> start(CompletableFuture<String> work) {
            return locks.on("async", "k").waitTime(Duration.ZERO).stage(() -> {
                bodies.incrementAndGet();
                return work;
            });
        }

        public Uni<String> uni(RedisServer redis) {
            return locks.on("uni", "k").uni(() -> {
                bodies.incrementAndGet();
                return Uni.createFrom().item(() -> "held " + redis.command("EXISTS", "padlock:uni:k"));
            });
        }

        public Multi<String> multi(RedisServer redis) {
            return locks.on("multi", "k").multi(() -> {
                bodies.incrementAndGet();
                return Multi.createFrom()
                        .items("a", "b")
                        .map(item -> item + redis.command("EXISTS", "padlock:multi:k"));
            });
        }
    }

    private static boolean released(RedisServer redis, String key) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (((List<?>) redis.command("KEYS", key)).isEmpty()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Test
    void aStageHoldsTheLockUntilItCompletes(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Async.class)) {
            Async async = app.bean(Async.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletionStage<String> stage = async.start(work);

            assertThat(redis.command("EXISTS", "padlock:async:k"))
                    .as("held after the code returned its stage")
                    .isEqualTo(1L);
            assertThat(catchThrowable(() -> async.start(new CompletableFuture<>())))
                    .as("a second caller cannot enter while the stage runs")
                    .isInstanceOf(LockNotAcquiredException.class);

            work.complete("done");
            assertThat(stage.toCompletableFuture().get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(released(redis, "padlock:async:k")).isTrue();
            assertThat(async.bodies()).isEqualTo(1);
        }
    }

    @Test
    void aUniOrMultiTakesTheLockOnSubscriptionForEachRun(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Async.class)) {
            Async async = app.bean(Async.class);

            Uni<String> uni = async.uni(redis);
            Multi<String> multi = async.multi(redis);
            assertThat(async.bodies()).as("nothing runs before subscription").isZero();
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();

            assertThat(uni.await().atMost(Duration.ofSeconds(30))).isEqualTo("held 1");
            assertThat(uni.await().atMost(Duration.ofSeconds(30))).isEqualTo("held 1");
            assertThat(multi.collect().asList().await().atMost(Duration.ofSeconds(30)))
                    .containsExactly("a1", "b1");
            assertThat(async.bodies()).as("one run per subscription").isEqualTo(3);
            assertThat(released(redis, "padlock:*")).isTrue();
        }
    }
}
