package dev.padlock.cdi.programmatic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.leases.LeaseLossTest;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Code run through {@code Locks} that outlives its lease is reported as a {@code @Locked} method is: a
 * {@code LockLost} event naming the lock and the call, a WARN, {@code LockContext} that knows, and with
 * {@code on-lease-lost=throw} a {@code LockLostException} after the code. Code that ends within its lease is the
 * control: nothing reported.
 */
@ExtendWith(RedisExtension.class)
class LocksLeaseLossTest {

    @ApplicationScoped
    public static class Work {
        @Inject
        Locks locks;

        @Inject
        LockContext lock;

        /** Runs for {@code millis} under a 200 ms lease; returns whether the lock still counted as held at the end. */
        public boolean overrun(String name, long millis) {
            return locks.on(name, "k").leaseTime(Duration.ofMillis(200)).get(() -> {
                sleep(millis);
                return lock.isHeld();
            });
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void codeThatOutlivesItsLeaseIsReported(RedisServer redis) {
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (Deployment app = Deployment.start(
                        Map.of("padlock.redis.address", redis.uri(), "padlock.locks.\"strict\".on-lease-lost", "throw"),
                        Work.class,
                        LeaseLossTest.Losses.class);
                LeaseLossTest.Capture capture = LeaseLossTest.Capture.warnings(warnings)) {
            Work work = app.bean(Work.class);
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);

            assertThat(work.overrun("short", 0)).as("control: within its lease").isTrue();
            assertThat(losses.seen()).isEmpty();
            assertThat(warnings).isEmpty();

            assertThat(work.overrun("short", 600)).as("LockContext knows").isFalse();
            assertThat(losses.seen()).singleElement().satisfies(loss -> {
                assertThat(loss.lockKey()).isEqualTo("padlock:short:k");
                assertThat(loss.method()).isEqualTo("Locks.on(\"short\", key)");
                assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.DEADLINE);
            });
            assertThat(warnings).singleElement().asString().contains("padlock:short:k", "Locks.on(\"short\", key)");

            assertThat(catchThrowable(() -> work.overrun("strict", 600)))
                    .as("per-lock on-lease-lost=throw")
                    .isInstanceOf(LockLostException.class)
                    .hasMessageContaining("padlock:strict:k");
            assertThat(losses.seen()).hasSize(2);
        }
    }
}
