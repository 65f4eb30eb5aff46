package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An observer of {@link LockLost} that throws an {@code Error} is the application's bug, but it must not stop
 * Padlock from releasing the call's other locks, passing their turns on, or returning the method's result.
 */
@ExtendWith(RedisExtension.class)
class ObserverErrorTest {

    @ApplicationScoped
    public static class Overrun {
        @Locked(
                value = "obs",
                key = {"{0}", "{1}"},
                leaseTime = "200ms")
        public String both(String a, String b) throws InterruptedException {
            Thread.sleep(500);
            return "done";
        }

        @Locked(value = "obs", key = "{0}", waitTime = "0")
        public String one(String a) {
            return "free";
        }
    }

    @ApplicationScoped
    public static class FailingObserver {
        static final AtomicInteger CALLS = new AtomicInteger();

        void onLoss(@Observes LockLost loss) {
            CALLS.incrementAndGet();
            throw new AssertionError("an observer's bug");
        }
    }

    @Test
    void anObserversErrorDoesNotStopTheRelease(RedisServer redis) throws Exception {
        redis.flushAll();
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Overrun.class, FailingObserver.class)) {
            Overrun overrun = app.bean(Overrun.class);

            assertThat(overrun.both("a", "b")).isEqualTo("done");

            assertThat(FailingObserver.CALLS.get())
                    .as("both losses were reported")
                    .isEqualTo(2);
            assertThat(overrun.one("a"))
                    .as("the first key's turn was passed on")
                    .isEqualTo("free");
            assertThat(overrun.one("b")).isEqualTo("free");
        }
    }
}
