package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.Locks;
import io.quarkus.test.QuarkusExtensionTest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * {@code Locks} on Quarkus: injectable, reads per-lock configuration, holds a {@code Uni} from subscription, keeps one
 * type per name, and is refused a key held elsewhere. (That it excludes itself and {@code @Locked} methods of the
 * same name and key is {@link LocksMutualExclusionOnQuarkusTest}.)
 */
class LocksOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Counter.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("padlock.locks.\"q-configured\".lease-time", "7s");

    @ApplicationScoped
    public static class Counter {
        final AtomicInteger count = new AtomicInteger();

        @Inject
        Locks locks;

        @Inject
        LockContext lock;

        @Inject
        RedissonClient redisson;

        @Locked(value = "q-code", key = "{sku}", waitTime = "60s", type = LockType.FAIR)
        public void byAnnotation(String sku) {
            count.incrementAndGet();
        }

        public void inCodeWithTheWrongType(String sku) {
            locks.on("q-code", sku).run(count::incrementAndGet);
        }

        public long configuredLease() {
            return locks.on("q-configured", "k")
                    .leaseTime(Duration.ofSeconds(1))
                    .get(() -> redisson.getKeys().remainTimeToLive(lock.key()));
        }

        public Uni<String> uni() {
            return locks.on("q-uni", "k").uni(() -> {
                String key = lock.key(); // LockContext is there while the code runs, not in the Uni it returns
                return Uni.createFrom().item(key);
            });
        }

        public void tryOnce(String name) {
            locks.on(name, "k").waitTime(Duration.ZERO).run(count::incrementAndGet);
        }

        public int count() {
            return count.get();
        }
    }

    @Inject
    Counter counter;

    @Inject
    RedissonClient redisson;

    @Test
    void locksInCodeOnQuarkus() throws Exception {
        counter.byAnnotation("A-1");
        assertThat(counter.count()).isEqualTo(1);

        assertThat(counter.configuredLease())
                .as("padlock.locks.\"q-configured\".lease-time beats the call's 1s")
                .isGreaterThan(1_000L);
        assertThat(counter.uni().await().atMost(Duration.ofSeconds(30))).isEqualTo("padlock:q-uni:k");

        assertThat(catchThrowable(() -> counter.inCodeWithTheWrongType("A-1")))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("FAIR by " + Counter.class.getName() + "#byAnnotation(String)");

        RLock other = redisson.getLock("padlock:q-held:k");
        assertThat(other.tryLockAsync(0, 60_000, TimeUnit.MILLISECONDS, -42L).get())
                .isTrue();
        try {
            assertThat(catchThrowable(() -> counter.tryOnce("q-held"))).isInstanceOf(LockNotAcquiredException.class);
        } finally {
            other.unlockAsync(-42L).get();
        }
        assertThat(counter.count()).as("neither refused call ran").isEqualTo(1);
    }
}
