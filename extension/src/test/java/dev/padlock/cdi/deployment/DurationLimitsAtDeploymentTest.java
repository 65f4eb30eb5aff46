package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Durations beyond 10 years and fixed leases under 1 ms stop the container as definition errors naming the member
 * or key, rather than as an ArithmeticException from the engine or a lease silently turned into the watchdog.
 * Nothing here needs Redis: the deployment fails before any connection.
 */
class DurationLimitsAtDeploymentTest {

    @ApplicationScoped
    public static class Limits {
        @Locked(waitTime = "200000000000d")
        public void hugeWait() {}

        @Locked(leaseTime = "200000000000d")
        public void hugeLease() {}

        @Locked(leaseTime = "PT0.0004S")
        public void subMillisecondLease() {}

        @Locked("configured")
        public void configured() {}
    }

    @Test
    void everyOutOfRangeDurationIsADefinitionErrorNamingWhereItIsWritten() {
        RuntimeException failure = Deployment.failing(
                Map.of(
                        "padlock.watchdog-timeout", "200000000000d",
                        "padlock.wait-time", "PT87649H",
                        "padlock.locks.\"configured\".lease-time", "PT0.0000001S"),
                Limits.class);
        String all = failure.toString() + failure.getCause();
        for (Throwable s : failure.getSuppressed()) {
            all += s;
        }
        String bean = Limits.class.getName();
        assertThat(all)
                .doesNotContain("ArithmeticException")
                .contains("Invalid @Locked.waitTime on " + bean + "#hugeWait(): '200000000000d' is more than 10 years")
                .contains("Invalid @Locked.leaseTime on " + bean + "#hugeLease(): '200000000000d' is more than 10"
                        + " years")
                .contains("Invalid @Locked.leaseTime on " + bean + "#subMillisecondLease(): 'PT0.0004S' is under 1ms")
                .contains("Invalid padlock.locks.\"configured\".lease-time (lock of " + bean + "#configured()):"
                        + " 'PT0.0000001S' is under 1ms")
                .contains("Invalid padlock.watchdog-timeout: '200000000000d' is more than 10 years")
                .contains("Invalid padlock.wait-time: 'PT87649H' is more than 10 years");
    }
}
