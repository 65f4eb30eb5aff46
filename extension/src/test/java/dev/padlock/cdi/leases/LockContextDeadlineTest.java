package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Business code inside a locked call can ask where it stands: the time left until its lock's deadline (falling,
 * and moved on by each renewal), whether it still holds the lock, and {@code checkHeld()} right before an
 * irreversible step, which throws once the lease is over. On blocking and CompletionStage methods alike.
 */
@ExtendWith(RedisExtension.class)
class LockContextDeadlineTest {

    @ApplicationScoped
    public static class Steps {
        @Inject
        LockContext lock;

        @Locked("ctx-watchdog")
        public List<Duration> sampleWhileRenewed() throws InterruptedException {
            return sample();
        }

        @Locked("ctx-stage-watchdog")
        public CompletionStage<List<Duration>> sampleInStage() throws InterruptedException {
            return CompletableFuture.completedFuture(sample());
        }

        @Locked(value = "ctx-fixed", leaseTime = "300ms")
        public Throwable checkAfterTheLease() throws InterruptedException {
            assertThat(lock.isHeld()).isTrue();
            lock.checkHeld(); // held: nothing thrown
            Thread.sleep(400);
            assertThat(lock.isHeld()).isFalse();
            assertThat(lock.remaining()).isZero();
            return catchThrowable(lock::checkHeld);
        }

        @Locked(value = "ctx-stage-fixed", leaseTime = "300ms")
        public CompletionStage<String> irreversibleStepAfterTheLease() throws InterruptedException {
            Thread.sleep(400);
            lock.checkHeld();
            return CompletableFuture.completedFuture("paid"); // never reached
        }

        /** remaining(), every 50 ms for 1.6 s (watchdog timeout 1.5 s: renewed about every 0.5 s). */
        private List<Duration> sample() throws InterruptedException {
            List<Duration> samples = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                samples.add(lock.remaining());
                assertThat(lock.isHeld()).isTrue();
                Thread.sleep(50);
            }
            return samples;
        }
    }

    private static Deployment start(RedisServer redis) {
        return Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", "1500ms"), Steps.class);
    }

    @Test
    void remainingTimeFallsAndIsRenewedInABlockingMethod(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            assertFallsAndIsRenewed(app.bean(Steps.class).sampleWhileRenewed());
        }
    }

    @Test
    void remainingTimeFallsAndIsRenewedInAStageMethod(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            assertFallsAndIsRenewed(
                    app.bean(Steps.class).sampleInStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void checkHeldThrowsOnceTheLeaseIsOverInABlockingMethod(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Throwable thrown = app.bean(Steps.class).checkAfterTheLease();

            assertThat(thrown).isInstanceOf(LockLostException.class).hasMessageContaining("padlock:ctx-fixed");
            assertThat(((LockLostException) thrown).getLoss().detectedBy()).isEqualTo(LockLost.Detection.DEADLINE);
        }
    }

    @Test
    void checkHeldStopsAStageMethodBeforeItsIrreversibleStep(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Throwable thrown = catchThrowable(() -> app.bean(Steps.class)
                    .irreversibleStepAfterTheLease()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS));

            Throwable cause = thrown instanceof java.util.concurrent.ExecutionException ? thrown.getCause() : thrown;
            assertThat(cause).isInstanceOf(LockLostException.class).hasMessageContaining("padlock:ctx-stage-fixed");
        }
    }

    private static void assertFallsAndIsRenewed(List<Duration> samples) {
        int falls = 0;
        int renewed = 0;
        for (int i = 1; i < samples.size(); i++) {
            int change = samples.get(i).compareTo(samples.get(i - 1));
            falls += change < 0 ? 1 : 0;
            renewed += change > 0 ? 1 : 0;
        }
        assertThat(samples)
                .allSatisfy(left -> assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofMillis(1_500)));
        assertThat(falls).as("samples that fell").isPositive();
        assertThat(renewed).as("samples moved on by a renewal").isPositive();
    }
}
