package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

/**
 * Misuse stops the container at start-up, every problem at once, each naming class, method or key and the
 * fix. Nothing here needs Redis: the deployment fails before any connection.
 */
class DeploymentErrorsTest {

    @ApplicationScoped
    public static class Broken {
        @Locked(key = "{skus}")
        public void unknownParameter(String sku) {}

        @Locked(waitTime = "soon")
        public void badWait() {}

        @Locked(onFailure = OnFailure.SKIP)
        public int skipPrimitive() {
            return 1;
        }

        @Locked("configured")
        public void badConfig() {}

        @Locked
        public final void finalMethod() {}
    }

    @ApplicationScoped
    public static class BadInjections {
        @Inject
        @Named("shared")
        RLock asLock;

        @Inject
        @Named("shared")
        RReadWriteLock asReadWrite;
    }

    @Test
    void everyProblemIsReportedInOneFailedDeployment() {
        RuntimeException failure = Deployment.failing(
                Map.of("padlock.locks.\"configured\".lease-time", "a while", "padlock.redis.address", "nowhere"),
                Broken.class);
        String all = failure.toString() + String.valueOf(failure.getCause());
        for (Throwable s : failure.getSuppressed()) {
            all += s;
        }
        String bean = Broken.class.getName();
        assertThat(all)
                .contains("Invalid @Locked.key on " + bean + "#unknownParameter(String): {skus} names no parameter"
                        + " of the method. Use one of sku, or a position such as {0}.")
                .contains("Invalid @Locked.waitTime on " + bean + "#badWait(): 'soon' is not a duration")
                .contains("Invalid @Locked.onFailure on " + bean + "#skipPrimitive(): SKIP has nothing to return")
                .contains("Invalid padlock.locks.\"configured\".lease-time (lock of " + bean + "#badConfig())")
                .contains("Invalid @Locked on " + bean + "#finalMethod(): a private, static or final method is not"
                        + " intercepted")
                .contains("Invalid padlock.redis.address: 'nowhere' needs a scheme");
    }

    @Test
    void conflictingNamedLocksFailTheDeployment() {
        RuntimeException failure = Deployment.failing(Map.of(), BadInjections.class);
        assertThat(failure.toString() + failure.getCause())
                .contains("Invalid @Named(\"shared\") lock injection points: RLock at field "
                        + BadInjections.class.getName() + ".asLock and RReadWriteLock at field "
                        + BadInjections.class.getName() + ".asReadWrite would share the Redis key padlock:shared");
    }
}
