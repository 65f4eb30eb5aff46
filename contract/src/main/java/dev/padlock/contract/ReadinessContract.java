package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

/**
 * With MicroProfile Health, Padlock adds a {@code @Readiness} check named {@code padlock}: up, with the address (and
 * what the server check found), while Redis answers. Padlock's client connects in the background after start-up; the check says "connecting" until then.
 */
public abstract class ReadinessContract extends Scenario {

    public static final ApplicationUnderTest APPLICATION = ApplicationUnderTest.of(Job.class);

    @ApplicationScoped
    public static class Job {
        @Locked("job")
        public String run() {
            return "ran";
        }
    }

    @Test
    void upWithTheAddressWhileRedisAnswers() {
        String address = ConfigProvider.getConfig().getValue(ApplicationUnderTest.REDIS_ADDRESS, String.class);

        HealthCheckResponse connected = awaitResponse(this::check, r -> r.getStatus() == Status.UP);
        assertThat(connected.getName()).isEqualTo("padlock");
        // Beside the address, what the server check found (the test server keeps no data on disk: a notice).
        assertThat(connected.getData().orElseThrow())
                .containsEntry("address", "single [" + address + "]")
                .doesNotContainKey("reason");

        assertThat(bean(Job.class).run()).isEqualTo("ran");
        HealthCheckResponse afterACall = check();
        assertThat(afterACall.getStatus()).as("right after a locked call").isEqualTo(Status.UP);
        assertThat(afterACall.getData().orElseThrow()).containsEntry("address", "single [" + address + "]");
    }

    private HealthCheckResponse check() {
        return bean(HealthCheck.class, Readiness.Literal.INSTANCE).call();
    }

    /** The first answer of {@code check} within 30 s that is {@code expected}; fails naming the last one otherwise. */
    public static HealthCheckResponse awaitResponse(
            Supplier<HealthCheckResponse> check, Predicate<HealthCheckResponse> expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HealthCheckResponse response = check.get();
        while (!expected.test(response)) {
            assertThat(System.nanoTime())
                    .as("within 30 s; last answer %s %s", response.getStatus(), response.getData())
                    .isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            response = check.get();
        }
        return response;
    }
}
