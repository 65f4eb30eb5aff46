package dev.padlock.cdi.handoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A call of this application that holds a fixed lease past its end (a method that hangs) keeps other applications
 * out only until the lease ends, in Redis. The local queue must not keep this application's own callers out any
 * longer: once the holder's lease is over, the next caller asks Redis, and the holder's loss is reported.
 */
@ExtendWith(RedisExtension.class)
class LocalTurnLeaseTest {

    @ApplicationScoped
    public static class Hanging {
        @Locked(value = "hang", leaseTime = "500ms", waitTime = "5s")
        public String hold(CountDownLatch release) throws InterruptedException {
            release.await(30, TimeUnit.SECONDS);
            return "held";
        }

        @Locked(value = "hang", leaseTime = "500ms", waitTime = "5s")
        public String next() {
            return "next";
        }
    }

    @ApplicationScoped
    public static class Losses {
        final List<LockLost> seen = new CopyOnWriteArrayList<>();

        void record(@Observes LockLost loss) {
            seen.add(loss);
        }

        List<LockLost> seen() {
            return seen;
        }
    }

    @Test
    void theNextCallerOfTheApplicationAsksRedisOnceTheHoldersLeaseEnded(RedisServer redis) throws Exception {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Hanging.class, Losses.class)) {
            Hanging hanging = app.bean(Hanging.class);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> {
                try {
                    return hanging.hold(release);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                for (int i = 0; i < 100 && (Long) redis.command("EXISTS", "padlock:hang") == 0; i++) {
                    Thread.sleep(20);
                }

                assertThat(hanging.next())
                        .as("waits for the holder's lease to end, not for the holder to return")
                        .isEqualTo("next");
                assertThat(holder).as("the holder still runs").isNotDone();
                List<LockLost> seen = app.bean(Losses.class).seen();
                for (int i = 0; i < 100 && seen.isEmpty(); i++) {
                    Thread.sleep(20); // delivered on Padlock's event thread
                }
                assertThat(seen)
                        .as("the holder's loss was reported")
                        .singleElement()
                        .extracting(LockLost::lockKey)
                        .isEqualTo("padlock:hang");
            } finally {
                release.countDown();
            }
            assertThat(holder.get(30, TimeUnit.SECONDS)).isEqualTo("held");
            assertThat(app.bean(Losses.class).seen()).as("reported once").hasSize(1);
        }
    }
}
