package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A call nested in another call that holds the same key shares the enclosing call's hold: it never shortens the
 * outer lease, never takes a second fencing token, and never waits against its own caller, whatever kinds of
 * method the two are. Each scenario is checked against a second application, which must stay out while the outer
 * call runs.
 */
@ExtendWith(RedisExtension.class)
class NestedCallsTest {

    @ApplicationScoped
    public static class Nested {
        @Inject
        LockContext lock;

        @Locked(value = "nest", leaseTime = "20s")
        public <T> T longLease(Supplier<T> body) {
            return body.get();
        }

        @Locked(value = "nest", leaseTime = "1s")
        public String shortLease() {
            return "inner";
        }

        @Locked(value = "nest")
        public <T> T watchdog(Supplier<T> body) {
            return body.get();
        }

        @Locked(value = "nest", leaseTime = "300ms", waitTime = "1s")
        public String veryShortLease() {
            return "inner";
        }

        /** What another application tries while the outer call runs: take the key at once. */
        @Locked(value = "nest", waitTime = "0")
        public boolean tryNow() {
            return true;
        }

        @Locked(value = "nest", waitTime = "2s")
        public CompletionStage<String> stage(Supplier<String> body) {
            return CompletableFuture.completedFuture(body.get());
        }

        @Locked(value = "nest", waitTime = "2s")
        public String blocking() {
            return "inner";
        }

        @Locked(value = "ledger", type = LockType.FENCED, leaseTime = "20s")
        public long[] fencedOuter(Supplier<long[]> body) {
            long before = lock.token();
            long[] inner = body.get();
            return new long[] {before, inner[0], lock.token()};
        }

        @Locked(value = "ledger", type = LockType.FENCED, leaseTime = "20s")
        public long[] fencedInner() {
            return new long[] {lock.token()};
        }
    }

    @BeforeEach
    void flush(RedisServer redis) {
        redis.flushAll();
    }

    private static Map<String, String> config(RedisServer redis) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", redis.uri());
        config.put("padlock.watchdog-timeout", "3s");
        return config;
    }

    @Test
    void aNestedShorterLeaseDoesNotShortenTheOuterHold(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(config(redis), Nested.class);
                Deployment other = Deployment.start("other", config(redis), Nested.class)) {
            Nested nested = app.bean(Nested.class);
            Nested intruder = other.bean(Nested.class);

            boolean[] entered = nested.longLease(() -> {
                nested.shortLease();
                long pttl = (Long) redis.command("PTTL", "padlock:nest");
                sleep(1_300); // past the inner lease
                return new boolean[] {pttl > 5_000, tryOrFalse(intruder)};
            });

            assertThat(entered[0])
                    .as("the outer 20 s lease is kept after the nested call")
                    .isTrue();
            assertThat(entered[1])
                    .as("another application entered while the outer call ran")
                    .isFalse();
            assertThat(redis.command("EXISTS", "padlock:nest")).isEqualTo(0L);
        }
    }

    @Test
    void aNestedLeaseDoesNotShortenAWatchdogHold(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(config(redis), Nested.class);
                Deployment other = Deployment.start("other", config(redis), Nested.class)) {
            Nested nested = app.bean(Nested.class);
            Nested intruder = other.bean(Nested.class);

            boolean entered = nested.watchdog(() -> {
                nested.veryShortLease();
                sleep(600);
                return tryOrFalse(intruder);
            });

            assertThat(entered)
                    .as("another application entered while the outer call ran")
                    .isFalse();
        }
    }

    /** The control: without the outer call, the other application does get in. */
    @Test
    void withoutAnOuterCallTheOtherApplicationEnters(RedisServer redis) {
        try (Deployment app = Deployment.start(config(redis), Nested.class);
                Deployment other = Deployment.start("other", config(redis), Nested.class)) {
            app.bean(Nested.class).shortLease();
            assertThat(tryOrFalse(other.bean(Nested.class))).isTrue();
        }
    }

    @Test
    void aNestedFencedCallKeepsTheOuterToken(RedisServer redis) {
        try (Deployment app = Deployment.start(config(redis), Nested.class)) {
            Nested nested = app.bean(Nested.class);

            long[] tokens = nested.fencedOuter(nested::fencedInner);

            assertThat(tokens[1]).as("the nested call's token").isEqualTo(tokens[0]);
            assertThat(tokens[2])
                    .as("the outer call's token after the nested call")
                    .isEqualTo(tokens[0]);
            assertThat(redis.command("GET", "redisson_lock_token:{padlock:ledger}"))
                    .as("the key's last token: the nested call took none of its own")
                    .isEqualTo(Long.toString(tokens[0]));
            long[] next = nested.fencedOuter(nested::fencedInner);
            assertThat(next[0]).as("the next call's token").isGreaterThan(tokens[0]);
        }
    }

    @Test
    void aBlockingCallNestedInAStageCallReentersAtOnce(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(config(redis), Nested.class)) {
            Nested nested = app.bean(Nested.class);

            CompletionStage<String> result = nested.stage(nested::blocking);

            assertThat(result.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("inner");
        }
    }

    @Test
    void aStageCallNestedInABlockingCallFailsAtOnceSayingWhy(RedisServer redis) {
        try (Deployment app = Deployment.start(config(redis), Nested.class)) {
            Nested nested = app.bean(Nested.class);

            Throwable refused = nested.watchdog(() -> catchThrowable(
                    () -> nested.stage(() -> "inner").toCompletableFuture().join()));

            Throwable cause = refused instanceof CompletionException ? refused.getCause() : refused;
            // misuse, not contention: no retry could make it succeed, so not a LockNotAcquiredException
            assertThat(cause)
                    .as("no wait against its own caller")
                    .isInstanceOf(LockException.class)
                    .isNotInstanceOf(LockNotAcquiredException.class)
                    .hasMessageNotContaining("not acquired within")
                    .hasMessageContaining("padlock:nest")
                    .hasMessageContaining("#watchdog")
                    .hasMessageContaining("holds this key");
        }
    }

    private static boolean tryOrFalse(Nested intruder) {
        try {
            return intruder.tryNow();
        } catch (LockNotAcquiredException e) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
