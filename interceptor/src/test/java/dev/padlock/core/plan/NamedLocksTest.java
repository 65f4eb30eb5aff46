package dev.padlock.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NamedLocksTest {

    private static NamedLocks.Result plan(Map<String, String> config, NamedLocks.InjectionPoint... points) {
        GlobalDefaults global = GlobalDefaults.read(ConfigView.of(config), new Problems());
        return NamedLocks.plan(List.of(points), global, ConfigView.of(config));
    }

    private static NamedLocks.InjectionPoint at(String name, NamedLocks.Kind kind) {
        return new NamedLocks.InjectionPoint(name, kind, "field com.acme.Job." + name);
    }

    @Test
    void oneLockPerNameSortedWithPrefixAndConfiguredType() {
        NamedLocks.Result r = plan(
                Map.of("padlock.locks.\"orders\".type", "fair"),
                at("orders", NamedLocks.Kind.LOCK),
                at("catalog", NamedLocks.Kind.READ_WRITE),
                at("orders", NamedLocks.Kind.LOCK));
        assertThat(r.problems()).isEmpty();
        assertThat(r.locks())
                .containsExactly(
                        new NamedLocks.NamedLock(
                                "catalog",
                                NamedLocks.Kind.READ_WRITE,
                                LockType.WRITE,
                                "padlock:catalog",
                                "field com.acme.Job.catalog"),
                        new NamedLocks.NamedLock(
                                "orders",
                                NamedLocks.Kind.LOCK,
                                LockType.FAIR,
                                "padlock:orders",
                                "field com.acme.Job.orders"));
    }

    @Test
    void emptyConflictingAndMistypedNamesAreProblems() {
        NamedLocks.Result r = plan(
                Map.of("padlock.locks.\"report\".type", "read"),
                at("", NamedLocks.Kind.LOCK),
                at("x", NamedLocks.Kind.LOCK),
                at("x", NamedLocks.Kind.READ_WRITE),
                at("report", NamedLocks.Kind.LOCK),
                at("{x}", NamedLocks.Kind.FENCED));
        assertThat(r.problems()).hasSize(4);
        assertThat(r.problems())
                .anySatisfy(p -> assertThat(p)
                        .startsWith("Invalid @Named RLock injection point field com.acme.Job.:")
                        .contains("the lock name is empty"))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("Invalid @Named(\"x\") lock injection points:")
                        .contains("RLock at", "RReadWriteLock at", "padlock:x"))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("Invalid padlock.locks.\"report\".type for the RLock")
                        .contains("reentrant, fair, spin, fenced"))
                .anySatisfy(p -> assertThat(p).contains("Remove the braces"));
    }
}
