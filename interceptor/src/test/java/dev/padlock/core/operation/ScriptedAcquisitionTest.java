package dev.padlock.core.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.engine.EngineOptions;
import dev.padlock.core.engine.EngineWiring;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.redis.LockCommands;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An acquisition's steps, decided on the engine's seams: the lock commands answer as each test scripts them and the
 * clock moves when the test says, so the step that follows an answer Redis rarely gives (none at all; a grant long
 * after the request) is shown without a slow or broken server. The client and the renewal script run against a real
 * Redis (padlock-testing), which holds nothing the scripted commands pretend to have taken.
 */
@ExtendWith(RedisExtension.class)
class ScriptedAcquisitionTest {

    /** A monotonic clock the test moves; it starts at the system's so that real timers stay sensible. */
    private final AtomicLong now = new AtomicLong(System.nanoTime());

    /** Lock commands answered by the test: each lock request by {@link #answer}; unlocks recorded. */
    private final class Scripted implements LockCommands {
        volatile Function<RLock, CompletableFuture<Boolean>> answer;
        final List<String> unlocked = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<Boolean> tryLock(RLock lock, long waitMillis, long leaseMillis, long owner) {
            return answer.apply(lock);
        }

        @Override
        public CompletableFuture<Long> tryFenced(RLock lock, long waitMillis, long leaseMillis, long owner) {
            throw new AssertionError("no fenced lock here");
        }

        @Override
        public CompletableFuture<Void> unlock(RLock lock, long owner) {
            unlocked.add(lock.getName());
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Boolean> stillHeld(RLock lock, long owner) {
            return CompletableFuture.completedFuture(true);
        }
    }

    private final Scripted commands = new Scripted();
    private RedissonClient client;
    private PadlockEngine engine;

    @BeforeEach
    void start(RedisServer redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        client = Redisson.create(config);
        ConfigView view = ConfigView.of(Map.of());
        LockedMethodValidator validator = new LockedMethodValidator(GlobalDefaults.read(view, new Problems()), view);
        EngineOptions options = EngineOptions.DEFAULTS.withCommands(commands).withTicker(now::get);
        engine = new PadlockEngine(
                validator, EngineWiring.of(() -> client, loss -> {}).withOptions(options));
    }

    @AfterEach
    void stop() {
        engine.close();
        client.shutdown();
    }

    @Test
    void aLockRequestRedisNeverAnsweredIsUndoneOwnerCheckedAndTheBodyDoesNotRun() {
        commands.answer = lock -> CompletableFuture.failedFuture(new TimeoutException("no answer"));
        AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> engine.locks().on("scripted", "k").get(() -> ran.getAndSet(true)))
                .isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining("Redis could not be asked");

        assertThat(ran).as("the body").isFalse();
        assertThat(commands.unlocked)
                .as("the script may have run: undone like a taken lock")
                .containsExactly("padlock:scripted:k");
    }

    @Test
    void aLockGrantedAfterALongWaitIsConfirmedBeforeTheBodyRunsAndGivenBackWhenRedisNoLongerHasIt() {
        // Granted 2 s after the request, by the engine's clock: longer than the drift margin of the 1 s lease, so the
        // lease cannot be timed from the request. The confirmation (a real renewal script) finds no such hold in
        // Redis, as when the lease ran out while Redis answered.
        commands.answer = lock -> {
            now.addAndGet(TimeUnit.SECONDS.toNanos(2));
            return CompletableFuture.completedFuture(true);
        };
        AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> engine.locks()
                        .on("scripted", "k")
                        .leaseTime(Duration.ofSeconds(1))
                        .get(() -> ran.getAndSet(true)))
                .isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining("had expired before Padlock could confirm it");

        assertThat(ran).as("the body").isFalse();
        assertThat(commands.unlocked).as("given back, owner-checked").containsExactly("padlock:scripted:k");
    }

    @Test
    void controlALockGrantedWithinTheDriftMarginRunsTheBodyWithoutAConfirmation() {
        commands.answer = lock -> {
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5)); // well inside the 30 ms margin of a 1 s lease
            return CompletableFuture.completedFuture(true);
        };

        String result = engine.locks()
                .on("scripted", "k")
                .leaseTime(Duration.ofSeconds(1))
                .get(() -> "ran");

        assertThat(result).isEqualTo("ran");
        assertThat(commands.unlocked).as("released at return").containsExactly("padlock:scripted:k");
    }
}
