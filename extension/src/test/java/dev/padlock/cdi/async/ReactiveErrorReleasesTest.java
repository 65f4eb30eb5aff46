package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Uni or Multi method that throws an {@code Error} (an assertion, a class that fails to initialise) instead of
 * returning its result releases its lock, as one that throws an exception does: the next caller gets in. The
 * watchdog timeout is short, so that a leaked lock would be seen renewed past it rather than lapse.
 */
@ExtendWith(RedisExtension.class)
class ReactiveErrorReleasesTest {

    @ApplicationScoped
    public static class Failing {
        volatile boolean fail = true;

        public void succeedFromNowOn() {
            fail = false;
        }

        @Locked(value = "error-uni", waitTime = "0")
        public Uni<String> uni() {
            if (fail) {
                throw new AssertionError("the body broke");
            }
            return Uni.createFrom().item("ran");
        }

        @Locked(value = "error-multi", waitTime = "0")
        public Multi<String> multi() {
            if (fail) {
                throw new AssertionError("the body broke");
            }
            return Multi.createFrom().item("ran");
        }
    }

    @Test
    void anErrorThrownByAUniOrMultiMethodReleasesItsLock(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", "2s");
        try (Deployment app = Deployment.start(config, Failing.class)) {
            Failing failing = app.bean(Failing.class);
            assertThat(catchThrowable(() -> failing.uni().await().atMost(Duration.ofSeconds(10))))
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(AssertionError.class);
            assertThat(catchThrowable(
                            () -> failing.multi().collect().asList().await().atMost(Duration.ofSeconds(10))))
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(AssertionError.class);
            Thread.sleep(2500); // past a watchdog lease: a leaked lock would still be held, renewed
            assertThat(redis.command("EXISTS", "padlock:error-uni")).isEqualTo(0L);
            assertThat(redis.command("EXISTS", "padlock:error-multi")).isEqualTo(0L);
            failing.succeedFromNowOn();
            assertThat(failing.uni().await().atMost(Duration.ofSeconds(10)))
                    .as("the next caller gets in")
                    .isEqualTo("ran");
            assertThat(failing.multi().collect().asList().await().atMost(Duration.ofSeconds(10)))
                    .containsExactly("ran");
        }
    }
}
