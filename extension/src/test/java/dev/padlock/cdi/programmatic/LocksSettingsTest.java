package dev.padlock.cdi.programmatic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Per-call settings of {@code Locks} (type, wait, lease, on-failure) apply, per-lock configuration beats them as it
 * beats an annotation member, SKIP lets a call pass without running its code, the one-type-per-name rule holds
 * across both front doors, and calls are measured as {@code @Locked} calls are.
 */
@ExtendWith(RedisExtension.class)
class LocksSettingsTest {

    /** An owner id no thread of this JVM has: the key is held "by another application". */
    private static final long OTHER_OWNER = -42L;

    public static class Registry {
        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    @ApplicationScoped
    public static class Work {
        final AtomicInteger ran = new AtomicInteger();

        @Inject
        Locks locks;

        @Inject
        LockContext lock;

        @Inject
        RedisServerHolder redis;

        public Locks locks() {
            return locks;
        }

        public int ran() {
            return ran.get();
        }

        /** The lease Redis holds the key for, read inside the code. */
        public long pttlInside(String name, Duration lease, boolean watchdog) {
            var request = locks.on(name, "k");
            request = watchdog ? request.watchdog() : lease != null ? request.leaseTime(lease) : request;
            return request.get(() -> (Long) redis.server.command("PTTL", lock.key()));
        }

        public long token(String name, LockType type) {
            var request = locks.on(name, "k");
            return (type == null ? request : request.type(type)).get(() -> lock.token());
        }

        public void count() {
            ran.incrementAndGet();
        }
    }

    @ApplicationScoped
    public static class Fair {
        @Locked(value = "queue", key = "{id}", type = LockType.FAIR)
        public void take(String id) {}
    }

    /** Lets the bean read Redis state from inside its code. */
    @Singleton
    public static class RedisServerHolder {
        RedisServer server;
    }

    private static Map<String, String> config(RedisServer redis, String... more) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", redis.uri());
        for (int i = 0; i < more.length; i += 2) {
            config.put(more[i], more[i + 1]);
        }
        return config;
    }

    private static Deployment start(RedisServer redis, String... more) {
        Deployment app =
                Deployment.start(config(redis, more), Work.class, Fair.class, RedisServerHolder.class, Registry.class);
        app.bean(RedisServerHolder.class).server = redis;
        return app;
    }

    private static RLock holdAsAnotherOwner(Deployment app, String key) throws Exception {
        RLock other = app.bean(RedissonClient.class).getLock(key);
        assertThat(other.tryLockAsync(0, 60_000, TimeUnit.MILLISECONDS, OTHER_OWNER)
                        .get())
                .isTrue();
        return other;
    }

    @Test
    void waitAndOnFailureApplyPerCall(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Work work = app.bean(Work.class);
            Locks locks = work.locks();
            RLock other = holdAsAnotherOwner(app, "padlock:busy:k");
            try {
                Throwable refused = catchThrowable(
                        () -> locks.on("busy", "k").waitTime(Duration.ZERO).run(work::count));
                assertThat(refused)
                        .isInstanceOf(LockNotAcquiredException.class)
                        .hasMessageContaining("padlock:busy:k")
                        .hasMessageContaining("Locks.on(\"busy\", key)");
                assertThat(((LockNotAcquiredException) refused).getWaited()).isEqualTo(Duration.ZERO);

                var skipping = locks.on("busy", "k").waitTime(Duration.ZERO).onFailure(OnFailure.SKIP);
                assertThat(skipping.run(work::count)).as("skipped").isFalse();
                assertThat(skipping.<String>get(() -> "ran")).isNull();
                assertThat(skipping.stage(() -> java.util.concurrent.CompletableFuture.completedFuture("ran"))
                                .toCompletableFuture()
                                .get())
                        .isNull();
                assertThat(work.ran()).isZero();
            } finally {
                other.unlockAsync(OTHER_OWNER).get();
            }
            assertThat(locks.on("busy", "k")
                            .waitTime(Duration.ZERO)
                            .onFailure(OnFailure.SKIP)
                            .run(work::count))
                    .as("control: free again, the same request runs")
                    .isTrue();
            assertThat(work.ran()).isEqualTo(1);

            SimpleMeterRegistry meters = app.bean(SimpleMeterRegistry.class);
            assertThat(meters.get("padlock.lock.acquire")
                            .tags("lock", "busy", "type", "reentrant", "outcome", "acquired")
                            .timer()
                            .count())
                    .as("measured as @Locked calls are")
                    .isEqualTo(1);
            assertThat(meters.get("padlock.lock.acquire")
                            .tags("lock", "busy", "type", "reentrant", "outcome", "skipped")
                            .timer()
                            .count())
                    .isEqualTo(3);
        }
    }

    @Test
    void leaseAndTypeApplyPerCall(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Work work = app.bean(Work.class);

            assertThat(work.pttlInside("lease", Duration.ofSeconds(2), false)).isBetween(1L, 2_000L);
            assertThat(work.pttlInside("lease", null, true))
                    .as("the watchdog holds it for padlock.watchdog-timeout")
                    .isGreaterThan(2_000L);
            assertThat(work.token("fenced", LockType.FENCED)).isPositive();
            assertThat(catchThrowable(() -> work.token("plain", null)))
                    .as("control: a reentrant lock has no token")
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void perLockConfigurationBeatsTheCall(RedisServer redis) throws Exception {
        try (Deployment app = start(
                redis,
                "padlock.locks.\"lease\".lease-time",
                "20s",
                "padlock.locks.\"busy\".wait-time",
                "0",
                "padlock.locks.\"plain\".type",
                "fenced")) {
            Work work = app.bean(Work.class);

            assertThat(work.pttlInside("lease", Duration.ofSeconds(2), false)).isGreaterThan(2_000L);
            assertThat(work.token("plain", null)).isPositive();
            RLock other = holdAsAnotherOwner(app, "padlock:busy:k");
            try {
                Throwable refused = catchThrowable(() -> work.locks()
                        .on("busy", "k")
                        .waitTime(Duration.ofMinutes(5))
                        .run(work::count));
                assertThat(refused).isInstanceOf(LockNotAcquiredException.class);
                assertThat(((LockNotAcquiredException) refused).getWaited()).isEqualTo(Duration.ZERO);
            } finally {
                other.unlockAsync(OTHER_OWNER).get();
            }
        }
    }

    @Test
    void aNameKeepsOneTypeAcrossBothFrontDoors(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Work work = app.bean(Work.class);
            Locks locks = work.locks();

            assertThat(catchThrowable(() -> locks.on("queue", "a").run(work::count)))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("the lock \"queue\" is taken with different types")
                    .hasMessageContaining("FAIR by " + Fair.class.getName() + "#take(String)")
                    .hasMessageContaining("REENTRANT by Locks.on(\"queue\", key)");
            assertThat(locks.on("queue", "a").type(LockType.FAIR).run(work::count))
                    .as("control: the method's type")
                    .isTrue();

            assertThat(locks.on("jobs").type(LockType.SPIN).run(work::count)).isTrue();
            assertThat(catchThrowable(() -> locks.on("jobs").run(work::count)))
                    .as("two calls in code")
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("SPIN by Locks.on(\"jobs\").type(SPIN)");
            assertThat(work.ran()).isEqualTo(2);
        }
    }

    @Test
    void badSettingsAreNamed(RedisServer redis) {
        try (Deployment app = start(redis, "padlock.locks.\"odd\".wait-time", "soon")) {
            Work work = app.bean(Work.class);
            Locks locks = work.locks();

            assertThat(catchThrowable(() -> locks.on("odd").run(work::count)))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("padlock.locks.\"odd\".wait-time")
                    .hasMessageContaining("soon");
            assertThat(catchThrowable(() -> locks.on("x").waitTime(Duration.ofMillis(-1))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Locks.on(\"x\").waitTime(PT-0.001S)")
                    .hasMessageContaining("negative");
            assertThat(catchThrowable(() -> locks.on("x").leaseTime(Duration.ZERO)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("under 1ms")
                    .hasMessageContaining("watchdog()");
            assertThat(work.ran()).isZero();
        }
    }
}
