package dev.padlock.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.shape.ReflectedShapes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockTypeConflictsTest {

    static class Beans {
        @Locked(value = "catalog", key = "{id}")
        void update(String id) {}

        @Locked(value = "catalog", key = "{id}", type = LockType.READ)
        void read(String id) {}

        @Locked(value = "catalog", type = LockType.WRITE)
        void writeAll() {}

        @Locked(value = "prices", key = "{id}", type = LockType.READ)
        void readPrice(String id) {}

        @Locked(value = "prices", type = LockType.WRITE)
        void writePrices() {}

        @Locked(value = "queue", type = LockType.FAIR)
        void fair() {}

        @Locked("queue")
        void plain() {}

        @Locked(value = "queue", type = LockType.SPIN)
        void spin() {}

        @Locked(value = "stock", key = "{sku}")
        void reserve(String sku) {}

        @Locked(value = "stock:eu", key = "{sku}", type = LockType.FENCED)
        void reserveEu(String sku) {}

        @Locked("stock:eu-42")
        void reserveEu42() {}

        @Locked("stock-eu")
        void notAnExtension() {}

        @Locked(value = "stock-eu:x", type = LockType.READ)
        void extendsAnUnkeyedName() {}

        @Locked("report")
        void report() {}
    }

    private final Map<String, String> config = new HashMap<>();
    private final List<NamedLocks.InjectionPoint> points = new ArrayList<>();

    private List<String> conflicts(String... methods) {
        ConfigView view = ConfigView.of(config);
        GlobalDefaults global = GlobalDefaults.read(view, new Problems());
        LockedMethodValidator validator = new LockedMethodValidator(global, view);
        List<LockPlan> plans = new ArrayList<>();
        for (String name : methods) {
            for (var m : Beans.class.getDeclaredMethods()) {
                if (m.getName().equals(name)) {
                    LockedMethodValidator.Result r =
                            validator.validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)));
                    assertThat(r.problems()).isEmpty();
                    plans.add(r.plan());
                }
            }
        }
        assertThat(plans).hasSize(methods.length);
        NamedLocks.Result named = NamedLocks.plan(points, global, view);
        return LockTypeConflicts.find(plans, named.locks(), view);
    }

    private static String m(String method) {
        return Beans.class.getName() + "#" + method;
    }

    @Test
    void readAndWriteShareANameAndOneTypeSharesAnything() {
        assertThat(conflicts("readPrice", "writePrices")).isEmpty();
        assertThat(conflicts("reserve", "reserveEu42")).isEmpty();
        points.add(new NamedLocks.InjectionPoint("prices", NamedLocks.Kind.READ_WRITE, "field com.acme.Job.prices"));
        points.add(new NamedLocks.InjectionPoint("report", NamedLocks.Kind.LOCK, "field com.acme.Job.report"));
        assertThat(conflicts("readPrice", "writePrices", "report")).isEmpty();
    }

    @Test
    void anExclusiveTypeAndAReadWriteTypeOnOneNameAreOneProblemNamingEveryUse() {
        assertThat(conflicts("update", "read", "writeAll"))
                .containsExactly("Invalid @Locked.type on " + m("read(String)") + ": the lock \"catalog\" is taken"
                        + " with different types: READ by " + m("read(String)") + ", REENTRANT by "
                        + m("update(String)") + ", WRITE by " + m("writeAll()") + ". Redisson's locks of different"
                        + " types do not see each other's holders on one Redis key, so both could run at once, or a"
                        + " waiter could miss the release and time out. Use one type for every lock named"
                        + " \"catalog\" (READ and WRITE may share one), or give the locks different names.");
    }

    @Test
    void differentExclusiveTypesOnOneNameAreAProblem() {
        assertThat(conflicts("fair", "plain", "spin"))
                .singleElement()
                .asString()
                .contains("the lock \"queue\" is taken with different types: FAIR by " + m("fair()") + ", REENTRANT by "
                        + m("plain()") + ", SPIN by " + m("spin()"));
    }

    @Test
    void namedBeansCountWithTheirConfiguredType() {
        points.add(new NamedLocks.InjectionPoint("report", NamedLocks.Kind.LOCK, "field com.acme.Job.report"));
        assertThat(conflicts("report")).isEmpty();
        points.add(new NamedLocks.InjectionPoint("queue", NamedLocks.Kind.LOCK, "field com.acme.Job.queue"));
        config.put("padlock.locks.\"queue\".type", "fair");
        assertThat(conflicts()).isEmpty();
        points.add(new NamedLocks.InjectionPoint("catalog", NamedLocks.Kind.READ_WRITE, "field com.acme.Job.catalog"));
        assertThat(conflicts("update"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.type on " + m("update(String)") + ": the lock \"catalog\" is taken with"
                        + " different types: REENTRANT by " + m("update(String)") + ", READ/WRITE by the"
                        + " RReadWriteLock injected at field com.acme.Job.catalog.");
    }

    @Test
    void configuredTypesBeatTheAnnotationAndAreNamed() {
        points.add(new NamedLocks.InjectionPoint("report", NamedLocks.Kind.FENCED, "field com.acme.Job.report"));
        assertThat(conflicts("report"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.type on " + m("report()") + ": the lock \"report\" is taken with different"
                        + " types: REENTRANT by " + m("report()") + ", FENCED by the RFencedLock injected at field"
                        + " com.acme.Job.report.");
        config.put("padlock.locks.report.type", "fenced");
        assertThat(conflicts("report")).isEmpty();
        points.clear();
        points.add(new NamedLocks.InjectionPoint("orders", NamedLocks.Kind.LOCK, "field com.acme.Job.orders"));
        config.put("padlock.locks.orders.type", "fair");
        config.put("padlock.locks.\"stock:eu-42\".type", "spin");
        assertThat(conflicts("reserve", "reserveEu42"))
                .singleElement()
                .asString()
                .contains("locked as SPIN (padlock.locks.\"stock:eu-42\".type) by " + m("reserveEu42()"));
    }

    @Test
    void aKeyedNameReachesTheKeysOfNamesThatExtendIt() {
        assertThat(conflicts("reserve", "reserveEu", "reserveEu42", "notAnExtension"))
                .containsExactly(
                        "Invalid @Locked.type on " + m("reserve(String)") + ": its keys padlock:stock:<key> can be the"
                                + " keys padlock:stock:eu:<key>, locked as FENCED by " + m("reserveEu(String)")
                                + ", and as REENTRANT here. Redisson's locks of different types do not see each"
                                + " other's holders on one Redis key, so both could run at once, or a waiter could"
                                + " miss the release and time out. Use one type for both, or a name for one of them"
                                + " that does not start with \"stock:\".");
    }

    @Test
    void anUnkeyedNameReachesOnlyItsOwnKey() {
        assertThat(conflicts("notAnExtension", "extendsAnUnkeyedName")).isEmpty();
    }
}
