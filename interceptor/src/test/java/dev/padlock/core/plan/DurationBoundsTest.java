package dev.padlock.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.padlock.Locked;
import dev.padlock.core.client.RedisConnectionReader;
import dev.padlock.core.client.RedisConnectionSettings;
import dev.padlock.core.client.RedissonConfigs;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.engine.EngineWiring;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.shape.ReflectedShapes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Durations a lock cannot use are refused where they are written, naming the member or key: more than ten years
 * (they overflow the engine's millisecond and nanosecond arithmetic), and fixed leases under a millisecond (Redis
 * counts leases in whole milliseconds, and 0 would mean the watchdog).
 */
class DurationBoundsTest {

    static final String HUGE = "200000000000d";

    static class Beans {
        @Locked(waitTime = HUGE)
        void hugeWait() {}

        @Locked(leaseTime = HUGE)
        void hugeLease() {}

        @Locked(leaseTime = "PT0.0004S")
        void subMillisecondLease() {}

        @Locked(waitTime = "0", leaseTime = "1ms")
        void tryOnceWithTheShortestLease() {}

        @Locked(waitTime = "3650d", leaseTime = "3650d")
        void tenYears() {}

        @Locked("configured")
        void configured() {}
    }

    private final Map<String, String> config = new HashMap<>();

    private List<String> problems(String name) {
        for (var m : Beans.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                Problems global = new Problems();
                GlobalDefaults settings = GlobalDefaults.read(ConfigView.of(config), global);
                assertThat(global.list()).isEmpty();
                return new LockedMethodValidator(settings, ConfigView.of(config))
                        .validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)))
                        .problems();
            }
        }
        throw new AssertionError(name);
    }

    private static String on(String method) {
        return " on " + Beans.class.getName() + "#" + method + "(): ";
    }

    @Test
    void annotationMembersOverTenYearsAreRefusedByMember() {
        assertThat(problems("hugeWait"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.waitTime" + on("hugeWait") + "'" + HUGE + "' is more than 10 years");
        assertThat(problems("hugeLease"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.leaseTime" + on("hugeLease") + "'" + HUGE + "' is more than 10 years");
    }

    @Test
    void aFixedLeaseUnderAMillisecondIsRefusedRatherThanTurnedIntoTheWatchdog() {
        assertThat(problems("subMillisecondLease"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.leaseTime" + on("subMillisecondLease") + "'PT0.0004S' is under 1ms");
    }

    @Test
    void zeroWaitOneMillisecondLeaseAndTenYearsStayValid() {
        assertThat(problems("tryOnceWithTheShortestLease")).isEmpty();
        assertThat(problems("tenYears")).isEmpty();
    }

    @Test
    void aPlanWithTheLargestDurationsRegistersWithoutOverflow() {
        for (var m : Beans.class.getDeclaredMethods()) {
            if (m.getName().equals("tenYears")) {
                ConfigView view = ConfigView.of(config);
                LockedMethodValidator validator =
                        new LockedMethodValidator(GlobalDefaults.read(view, new Problems()), view);
                LockPlan plan = validator
                        .validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)))
                        .plan();
                PadlockEngine engine = new PadlockEngine(validator, EngineWiring.of(() -> null, loss -> {}));
                try {
                    assertThatCode(() -> engine.register(m, plan)).doesNotThrowAnyException();
                } finally {
                    engine.close();
                }
            }
        }
    }

    @Test
    void perLockKeysAreRefusedByKey() {
        config.put("padlock.locks.\"configured\".wait-time", HUGE);
        config.put("padlock.locks.\"configured\".lease-time", "PT0.0004S");
        assertThat(problems("configured"))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("Invalid padlock.locks.\"configured\".wait-time (lock of " + Beans.class.getName()
                                + "#configured()): '" + HUGE + "' is more than 10 years"))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("Invalid padlock.locks.\"configured\".lease-time (lock of " + Beans.class.getName()
                                + "#configured()): 'PT0.0004S' is under 1ms"))
                .hasSize(2);
    }

    @Test
    void globalKeysAreRefusedByKey() {
        Problems problems = new Problems();
        GlobalDefaults.read(
                ConfigView.of(Map.of("padlock.wait-time", HUGE, "padlock.lease-time", "PT0.0004S")), problems);
        assertThat(problems.list())
                .containsExactly(
                        "Invalid padlock.wait-time: '" + HUGE + "' is more than 10 years (3650d); use 0, 250ms, 5s,"
                                + " 2m, 1h, 1d or ISO-8601 such as PT5S.",
                        "Invalid padlock.lease-time: 'PT0.0004S' is under 1ms, the smallest lease Redis keeps. Set 1ms"
                                + " or more, or 'watchdog'.");
    }

    @Test
    void watchdogTimeoutHasAFloorAndACeiling() {
        for (String bad : new String[] {HUGE, "3651d", "999ms", "PT0.0004S"}) {
            Problems problems = new Problems();
            RedisConnectionReader.read(ConfigView.of(Map.of("padlock.watchdog-timeout", bad)), problems);
            assertThat(problems.list())
                    .as(bad)
                    .singleElement()
                    .asString()
                    .startsWith("Invalid padlock.watchdog-timeout: '" + bad + "'");
        }
        for (String good : new String[] {"1s", "30s", "3650d"}) {
            Problems problems = new Problems();
            RedisConnectionSettings s =
                    RedisConnectionReader.read(ConfigView.of(Map.of("padlock.watchdog-timeout", good)), problems);
            assertThat(problems.list()).as(good).isEmpty();
            assertThat(RedissonConfigs.build(s, getClass().getClassLoader()).getLockWatchdogTimeout())
                    .isEqualTo(DurationText.parse(good).toMillis());
        }
    }
}
