package dev.padlock.core.setup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.UnsafeServerPolicy;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.core.setup.PadlockSetup.Connection;
import dev.padlock.core.shape.ReflectedShapes;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one set-up: every rule runs once, all problems come back together, whatever the integration. */
class PadlockSetupTest {

    static class Base {
        public void report() {}
    }

    @Locked("daily")
    static class Daily extends Base {}

    @Locked("weekly")
    static class Weekly extends Base {}

    static class Beans {
        @Locked(value = "stock", key = "{sku}")
        public void reserve(String sku) {}

        @Locked(value = "stock", key = "{sku}", type = LockType.READ)
        public void count(String sku) {}

        @Locked(value = "orders", key = "{missing}")
        public void broken(String id) {}
    }

    private static final ConfigView NO_CONFIG = ConfigView.of(Map.of());

    @Test
    void anInheritedMethodBoundDifferentlyByTwoBeansIsOneProblem() throws Exception {
        Method report = Base.class.getMethod("report");
        PadlockSetup<Method> setup = PadlockSetup.plan(
                NO_CONFIG,
                List.of(locked(report, Daily.class), locked(report, Weekly.class)),
                List.of(),
                Connection.APPLICATION_CLIENT,
                null);

        assertThat(setup.problems().list())
                .containsExactly("Invalid @Locked on " + Base.class.getName() + "#report(): the method is inherited by"
                        + " beans whose class-level @Locked differ (daily vs weekly). Override the method in the"
                        + " subclass and annotate it there.");
        assertThat(setup.methods()).hasSize(1);
    }

    @Test
    void theSameBindingSeenFromTwoBeansIsPlannedOnce() throws Exception {
        Method report = Base.class.getMethod("report");
        PadlockSetup<Method> setup = PadlockSetup.plan(
                NO_CONFIG,
                List.of(locked(report, Daily.class), locked(report, Daily.class)),
                List.of(),
                Connection.APPLICATION_CLIENT,
                null);

        assertThat(setup.problems().isEmpty()).isTrue();
        assertThat(setup.methods())
                .singleElement()
                .satisfies(m -> assertThat(m.plan().lockName()).isEqualTo("daily"));
    }

    @Test
    void methodProblemsConfigProblemsAndTypeConflictsComeBackTogether() throws Exception {
        ConfigView config = ConfigView.of(Map.of("padlock.wait-time", "soon", "padlock.redis.mode", "ring"));
        List<PadlockSetup.LockedMethod<Method>> methods = List.of(
                onMethod(Beans.class.getMethod("reserve", String.class)),
                onMethod(Beans.class.getMethod("broken", String.class)));
        // a method only checked (a removed bean) still counts for the one-type-per-name rule
        PadlockSetup.LockedMethod<Method> removed = new PadlockSetup.LockedMethod<>(
                null,
                ReflectedShapes.of(Beans.class.getMethod("count", String.class)),
                LockedSpec.of(Beans.class.getMethod("count", String.class).getAnnotation(Locked.class)));

        PadlockSetup<Method> setup = PadlockSetup.plan(
                config,
                List.of(methods.get(0), methods.get(1), removed),
                List.of(new NamedLocks.InjectionPoint("", NamedLocks.Kind.LOCK, "field com.acme.Jobs.lock")),
                Connection.CHECK_ONLY,
                null);

        List<String> problems = setup.problems().list();
        assertThat(problems).anyMatch(p -> p.startsWith("Invalid padlock.wait-time"));
        assertThat(problems).anyMatch(p -> p.startsWith("Invalid padlock.redis.mode"));
        assertThat(problems).anyMatch(p -> p.startsWith("Invalid @Locked.key on") && p.contains("#broken("));
        assertThat(problems).anyMatch(p -> p.contains("field com.acme.Jobs.lock"));
        assertThat(problems).anyMatch(p -> p.contains("stock") && p.contains("READ") && p.contains("REENTRANT"));
        assertThat(setup.methods()).extracting(m -> m.method().getName()).containsExactly("reserve");
    }

    @Test
    void theConnectionKeysAreNotReadWhenTheApplicationBringsItsClient() {
        ConfigView config = ConfigView.of(Map.of("padlock.redis.mode", "ring"));

        assertThat(PadlockSetup.plan(config, List.of(), List.of(), Connection.APPLICATION_CLIENT, null)
                        .problems()
                        .isEmpty())
                .isTrue();
        PadlockSetup<Method> own = PadlockSetup.plan(config, List.of(), List.of(), Connection.CHECK_ONLY, null);
        assertThat(own.problems().list()).singleElement().asString().startsWith("Invalid padlock.redis.mode");
        assertThat(own.redis()).isNotNull();
    }

    /** Read whoever provides the client, since the server check inspects an application's client too. */
    @Test
    void theUnsafeServerPolicyIsReadWithAnyClientAndABadValueNamesTheKey() {
        ConfigView notReady = ConfigView.of(Map.of("padlock.redis.unsafe-server", "Not-Ready"));
        assertThat(PadlockSetup.plan(notReady, List.of(), List.of(), Connection.APPLICATION_CLIENT, null)
                        .unsafeServer())
                .isEqualTo(UnsafeServerPolicy.NOT_READY);
        assertThat(PadlockSetup.plan(NO_CONFIG, List.of(), List.of(), Connection.CHECK_ONLY, null)
                        .unsafeServer())
                .as("the default")
                .isEqualTo(UnsafeServerPolicy.WARN);

        ConfigView sometimes = ConfigView.of(Map.of("padlock.redis.unsafe-server", "sometimes"));
        assertThat(PadlockSetup.plan(sometimes, List.of(), List.of(), Connection.APPLICATION_CLIENT, null)
                        .problems()
                        .list())
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.unsafe-server: 'sometimes' is not a policy for a server that can"
                        + " void locks. Use one of warn, not-ready, fail (");
    }

    private static PadlockSetup.LockedMethod<Method> locked(Method method, Class<?> bean) {
        return new PadlockSetup.LockedMethod<>(
                method, ReflectedShapes.of(method), LockedSpec.of(bean.getAnnotation(Locked.class)));
    }

    private static PadlockSetup.LockedMethod<Method> onMethod(Method method) {
        return new PadlockSetup.LockedMethod<>(
                method, ReflectedShapes.of(method), LockedSpec.of(method.getAnnotation(Locked.class)));
    }
}
