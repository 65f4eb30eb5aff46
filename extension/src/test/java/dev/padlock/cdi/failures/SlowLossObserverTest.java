package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A call whose release finds a lock lost returns once the application's {@link LockLost} observers have seen the
 * loss. Losses found off the caller's thread were delivered on one thread for the whole JVM, so a slow observer of one
 * application held up every other application's releases that found a loss, until their 5 s bound, and they returned
 * before their own observers ran (found by reading in engine review 3). Each application now has its own event thread.
 * Application A's observer blocks until application B's call returned; B's observer must have seen B's loss by then.
 */
@ExtendWith(RedisExtension.class)
class SlowLossObserverTest {

    static final CountDownLatch A_OBSERVING = new CountDownLatch(1);
    static final CountDownLatch B_RETURNED = new CountDownLatch(1);
    static final List<String> B_SEEN = new CopyOnWriteArrayList<>();

    @ApplicationScoped
    public static class Work {
        /** Two keys, so the release reports a loss on the event thread rather than the caller's. */
        @Locked(
                value = "slow-observer",
                key = {"{0}-1", "{0}-2"})
        public void run(String app, RedisServer redis) {
            redis.command("DEL", "padlock:slow-observer:" + app + "-1", "padlock:slow-observer:" + app + "-2");
        }
    }

    @ApplicationScoped
    public static class Observer {
        void onLoss(@Observes LockLost loss) throws InterruptedException {
            if (loss.lockKey().contains(":a-")) {
                A_OBSERVING.countDown();
                B_RETURNED.await(15, TimeUnit.SECONDS);
            } else {
                B_SEEN.add(loss.lockKey());
            }
        }
    }

    @Test
    void aSlowObserverOfOneApplicationDoesNotHoldUpAnothersReports(RedisServer redis) throws Exception {
        redis.flushAll();
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri());
        try (Deployment a = Deployment.start("a", config, Work.class, Observer.class);
                Deployment b = Deployment.start("b", config, Work.class, Observer.class)) {
            Thread slow = new Thread(() -> a.bean(Work.class).run("a", redis));
            slow.start();
            Waits.await(A_OBSERVING);

            b.bean(Work.class).run("b", redis);
            List<String> seenWhenReturned = List.copyOf(B_SEEN);
            B_RETURNED.countDown();
            slow.join(TimeUnit.SECONDS.toMillis(30));

            assertThat(seenWhenReturned)
                    .as("B's observer saw B's losses before B's call returned")
                    .isNotEmpty();
        }
    }
}
