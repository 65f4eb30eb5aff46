package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locks;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.opentelemetry.api.GlobalOpenTelemetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * E6 (engine review 2): what an application keeps for its {@code Locks} calls stays bounded once they are planned per
 * call (past the 1024 settings {@code Locks} keeps operations for, e.g. a wait set to what is left of a deadline).
 *
 * <p>With the OpenTelemetry API on the class path (it is, in this module's tests) and nothing that traces, the
 * extension's deferred events used to keep every meter asked for, one per call, for good. Counted, not timed: the
 * meters kept waiting for a binding.
 */
@ExtendWith(RedisExtension.class)
class LocksPlanningMemoryTest {

    /** Unlike any lock name or type, so a tag holding a rendered key would show it. */
    private static final String ORDER = "order-4711";

    @ApplicationScoped
    public static class Work {
        @Inject
        Locks locks;

        public Locks locks() {
            return locks;
        }
    }

    @Test
    void memoryStaysBoundedOnceTheSettingsCacheIsFull(RedisServer redis) throws Exception {
        Class.forName("io.opentelemetry.api.OpenTelemetry"); // the API is visible to the extension
        assertThat(GlobalOpenTelemetry.isSet())
                .as("precondition: nothing traces")
                .isFalse();
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class)) {
            Locks locks = app.bean(Work.class).locks();
            PadlockExtension extension = app.bean(BeanManager.class).getExtension(PadlockExtension.class);

            deadlineCalls(locks, 0, 1_100);
            int keptAfter1100 = extension.metersAwaitingBinding();
            deadlineCalls(locks, 1_100, 1_600);
            int keptAfter1600 = extension.metersAwaitingBinding();

            assertThat(keptAfter1600)
                    .as("meters kept after 1,100 and 1,600 calls: " + keptAfter1100 + " and " + keptAfter1600)
                    .isEqualTo(keptAfter1100)
                    .isZero();
        }
    }

    @Test
    void controlMetersAskedForBeforeDeploymentAreCountedUntilBound() {
        DeferredLockEvents events = new DeferredLockEvents();
        for (int i = 0; i < 3; i++) {
            events.meter("e6-control", LockType.REENTRANT);
        }
        assertThat(events.awaitingBinding()).isEqualTo(3);
    }

    /** Calls that pass what is left of a deadline as their wait: new settings each time. */
    private static void deadlineCalls(Locks locks, int from, int to) {
        for (int i = from; i < to; i++) {
            locks.on("e6", ORDER).waitTime(Duration.ofMillis(2000 + i)).run(() -> {});
        }
    }
}
