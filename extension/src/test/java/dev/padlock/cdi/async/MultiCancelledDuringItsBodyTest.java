package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Multi whose subscriber cancels while the method body still runs (before it returned its stream) does not
 * keep its lock for ever: the body may have started work, so the lock is not released, but it stops being renewed
 * and lapses with its (watchdog) lease. Without that, nothing ever heard of the call again and it was renewed for
 * as long as the application ran.
 */
@ExtendWith(RedisExtension.class)
class MultiCancelledDuringItsBodyTest {

    @ApplicationScoped
    public static class Slow {
        final CountDownLatch inBody = new CountDownLatch(1);
        final CountDownLatch bodyReturned = new CountDownLatch(1);

        public boolean awaitBody() throws InterruptedException {
            return inBody.await(10, TimeUnit.SECONDS);
        }

        public boolean awaitBodyReturned() throws InterruptedException {
            return bodyReturned.await(10, TimeUnit.SECONDS);
        }

        @Locked(value = "multi-body", waitTime = "0")
        public Multi<Integer> items() throws InterruptedException {
            inBody.countDown();
            Thread.sleep(800);
            bodyReturned.countDown();
            return Multi.createFrom().items(1, 2, 3);
        }
    }

    @Test
    void aMultiCancelledWhileItsBodyRunsLetsTheLockLapse(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", "2s");
        try (Deployment app = Deployment.start(config, Slow.class)) {
            Slow slow = app.bean(Slow.class);
            Cancellable subscription = slow.items().subscribe().with(item -> {}, failure -> {});
            assertThat(slow.awaitBody()).isTrue();
            subscription.cancel();
            assertThat(slow.awaitBodyReturned()).isTrue();
            assertThat(redis.command("EXISTS", "padlock:multi-body"))
                    .as("not released: the body ran and may have started work")
                    .isEqualTo(1L);
            boolean lapsed = false;
            for (int i = 0; i < 100 && !lapsed; i++) { // up to 5 s, the lease is 2 s
                lapsed = Long.valueOf(0).equals(redis.command("EXISTS", "padlock:multi-body"));
                Thread.sleep(50);
            }
            assertThat(lapsed)
                    .as("no longer renewed: the lock lapses with its lease")
                    .isTrue();
        }
    }
}
