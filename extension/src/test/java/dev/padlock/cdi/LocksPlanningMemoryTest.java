package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locks;
import dev.padlock.core.metrics.MicrometerLockEvents;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * E6 (engine review 2): what an application keeps for its {@code Locks} calls stays bounded once they are planned per
 * call (past the 1024 settings {@code Locks} keeps operations for, e.g. a wait set to what is left of a deadline).
 *
 * <p>With the OpenTelemetry API on the class path (it is, in this module's tests) and nothing that traces, the
 * extension's deferred events used to keep every meter asked for, one per call, for good. With a Micrometer registry,
 * each distinct lock name used to add its own set of meters to the registry, without bound. Counted, not timed: the
 * meters kept waiting for a binding, and the lock names the registry's meters carry.
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

    public static class Registry {
        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
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

    @Test
    void theRegistryKeepsABoundedSetOfLockNames(RedisServer redis) {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class, Registry.class)) {
            Locks locks = app.bean(Work.class).locks();
            MeterRegistry registry = app.bean(SimpleMeterRegistry.class);

            distinctNames(locks, 0, 1_100);
            int metersAfter1100 = registry.getMeters().size();
            distinctNames(locks, 1_100, 1_600);
            int metersAfter1600 = registry.getMeters().size();

            Set<String> names = lockTags(registry);
            assertThat(metersAfter1600)
                    .as("meters after 1,100 and 1,600 lock names: " + metersAfter1100 + " and " + metersAfter1600
                            + ", with " + names.size() + " lock tag values")
                    .isEqualTo(metersAfter1100);
            assertThat(names).hasSizeLessThanOrEqualTo(MicrometerLockEvents.LOCK_NAMES + 1);
            assertThat(registry.getMeters())
                    .as("the rendered key is never a tag")
                    .allSatisfy(meter -> assertThat(meter.getId().getTags())
                            .extracting(Tag::getValue)
                            .noneMatch(value -> value.contains(ORDER) || value.contains("padlock:")));
        }
    }

    @Test
    void controlEveryCallIsCountedAndTheFirstNamesKeepTheirOwnTag(RedisServer redis) {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Work.class, Registry.class)) {
            Locks locks = app.bean(Work.class).locks();
            MeterRegistry registry = app.bean(SimpleMeterRegistry.class);

            distinctNames(locks, 0, 1_600);

            assertThat(registry.get("padlock.lock.acquire")
                            .tags("lock", "e6-name-0", "outcome", "acquired")
                            .timer()
                            .count())
                    .as("a name under the bound has its own tag")
                    .isEqualTo(1);
            assertThat(registry.get("padlock.lock.acquire")
                            .tags("lock", MicrometerLockEvents.OTHER, "outcome", "acquired")
                            .timer()
                            .count())
                    .as("names past the bound are counted together")
                    .isPositive();
            assertThat(registry.get("padlock.lock.acquire").tag("outcome", "acquired").timers().stream()
                            .mapToLong(timer -> timer.count())
                            .sum())
                    .as("every call is counted, under its name or folded")
                    .isEqualTo(1_600);
        }
    }

    /** Calls that pass what is left of a deadline as their wait: new settings each time. */
    private static void deadlineCalls(Locks locks, int from, int to) {
        for (int i = from; i < to; i++) {
            locks.on("e6", ORDER).waitTime(Duration.ofMillis(2000 + i)).run(() -> {});
        }
    }

    /** Calls that build the lock name from data (warned against, but accepted). */
    private static void distinctNames(Locks locks, int from, int to) {
        for (int i = from; i < to; i++) {
            locks.on("e6-name-" + i, ORDER).run(() -> {});
        }
    }

    private static Set<String> lockTags(MeterRegistry registry) {
        return registry.getMeters().stream()
                .map(Meter::getId)
                .map(id -> id.getTag("lock"))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
