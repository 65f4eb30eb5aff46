package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** With SKIP, a call that finds the lock taken does not run and returns the documented empty result. */
@ExtendWith(RedisExtension.class)
class SkipTest {

    @ApplicationScoped
    public static class Nightly {
        final AtomicInteger ran = new AtomicInteger();

        @Locked(value = "nightly", waitTime = "0", onFailure = OnFailure.SKIP)
        public String report() {
            ran.incrementAndGet();
            return "done";
        }

        @Locked(value = "nightly", waitTime = "0", onFailure = OnFailure.SKIP)
        public void voidReport() {
            ran.incrementAndGet();
        }

        @Locked(value = "nightly", waitTime = "0", onFailure = OnFailure.SKIP)
        public Optional<String> optionalReport() {
            ran.incrementAndGet();
            return Optional.of("done");
        }

        @Locked(value = "nightly", waitTime = "0", onFailure = OnFailure.SKIP)
        public CompletionStage<String> asyncReport() {
            ran.incrementAndGet();
            return CompletableFuture.completedFuture("done");
        }

        public int ran() {
            return ran.get();
        }
    }

    @Test
    void skippedCallsReturnEmptyResultsAndDoNotRun(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Nightly.class)) {
            Nightly nightly = app.bean(Nightly.class);
            RLock other = app.bean(RedissonClient.class).getLock("padlock:nightly");
            // held by another owner id than any thread of this JVM
            assertThat(other.tryLockAsync(0, 30_000, java.util.concurrent.TimeUnit.MILLISECONDS, -42L)
                            .get())
                    .isTrue();
            try {
                assertThat(nightly.report()).isNull();
                nightly.voidReport();
                assertThat(nightly.optionalReport()).isEmpty();
                assertThat(nightly.asyncReport().toCompletableFuture().get()).isNull();
                assertThat(nightly.ran()).isZero();
            } finally {
                other.unlockAsync(-42L).get();
            }
            assertThat(nightly.report()).isEqualTo("done");
            assertThat(nightly.ran()).isEqualTo(1);
        }
    }
}
