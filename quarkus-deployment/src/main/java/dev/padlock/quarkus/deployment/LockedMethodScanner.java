package dev.padlock.quarkus.deployment;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.setup.PadlockSetup;
import io.quarkus.arc.processor.BeanInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.Index;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

/**
 * Turns the {@code @Locked} methods of ArC's beans into Padlock's terms: each method's shape (Jandex) and spec (the
 * binding's members, {@link Locked}'s own defaults filled in), as inputs to the shared set-up; then, for each method
 * the set-up found valid, a {@link LockedMethodBuildItem} with the types its key templates walk through.
 */
final class LockedMethodScanner {

    /** {@link Locked}'s own class file, for its members' defaults: the interceptor jar carries no Jandex index. */
    private static final IndexView LOCKED_DECLARATION = indexOf(Locked.class);

    /** A method ArC intercepts, as found: what its build item needs besides the plan. */
    private record Found(MethodInfo method, AnnotationInstance binding, JandexShapes.JandexMethod shape) {}

    private final IndexView index;
    private final List<PadlockSetup.LockedMethod<String>> inputs = new ArrayList<>();
    private final Map<String, Found> found = new TreeMap<>();

    LockedMethodScanner(IndexView index) {
        this.index = index;
    }

    /** A bean ArC keeps: its valid methods are recorded for run time, under their {@link LockedMethodBuildItem#id}. */
    void scan(BeanInfo bean) {
        scan(bean, true);
    }

    /**
     * A bean ArC removed as unused, so its methods can never be called; their mistakes are still reported now
     * rather than the day a bean starts to use them. Nothing of it is recorded.
     */
    void checkRemoved(BeanInfo bean) {
        scan(bean, false);
    }

    /** What the set-up checks: every method found, in the order found. */
    List<PadlockSetup.LockedMethod<String>> inputs() {
        return inputs;
    }

    /** The build items of the methods the set-up planned, ordered by {@link LockedMethodBuildItem#id()}. */
    List<LockedMethodBuildItem> items(PadlockSetup<String> setup) {
        Map<String, LockedMethodBuildItem> items = new TreeMap<>();
        for (PadlockSetup.PlannedMethod<String> planned : setup.methods()) {
            Found f = found.get(planned.method());
            items.put(planned.method(), item(planned.method(), f, planned.plan()));
        }
        return List.copyOf(items.values());
    }

    private void scan(BeanInfo bean, boolean kept) {
        for (var intercepted : bean.getInterceptedMethodsBindings().entrySet()) {
            intercepted.getValue().stream()
                    .filter(a -> a.name().equals(PadlockDotNames.LOCKED))
                    .findFirst()
                    .ifPresent(locked -> add(intercepted.getKey(), locked, kept));
        }
        // ArC does not intercept static or final methods, so they are not in the map above (private ones
        // fail ArC's own check first); the rules report them.
        for (MethodInfo method : bean.getImplClazz().methods()) {
            AnnotationInstance locked = method.annotation(PadlockDotNames.LOCKED);
            if (locked != null && locked.target().kind() == AnnotationTarget.Kind.METHOD) {
                JandexShapes.JandexMethod shape = JandexShapes.of(method, index);
                if (!shape.isInterceptable()) {
                    inputs.add(new PadlockSetup.LockedMethod<>(null, shape, spec(locked)));
                }
            }
        }
    }

    private void add(MethodInfo method, AnnotationInstance locked, boolean kept) {
        JandexShapes.JandexMethod shape = JandexShapes.of(method, index);
        String id = kept ? shape.display() : null;
        inputs.add(new PadlockSetup.LockedMethod<>(id, shape, spec(locked)));
        if (kept) {
            found.putIfAbsent(id, new Found(method, locked, shape));
        }
    }

    private static LockedMethodBuildItem item(String id, Found f, LockPlan plan) {
        MethodInfo method = f.method();
        List<String> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < method.parametersCount(); i++) {
            types.add(binaryName(method.parameterType(i)));
            String name = method.parameterName(i);
            names.add(name == null ? "" : name);
        }
        return new LockedMethodBuildItem(
                id,
                f.shape().declaringClass(),
                method.name(),
                types,
                names,
                f.binding(),
                spec(f.binding()),
                plan,
                keyPathTypes(plan, f.shape()));
    }

    /** The binding's members, with {@link Locked}'s declared defaults where the instance leaves them out. */
    static LockedSpec spec(AnnotationInstance locked) {
        return new LockedSpec(
                member(locked, "value").asString(),
                List.of(member(locked, "key").asStringArray()),
                LockType.valueOf(member(locked, "type").asEnum()),
                member(locked, "waitTime").asString(),
                member(locked, "leaseTime").asString(),
                OnFailure.valueOf(member(locked, "onFailure").asEnum()),
                member(locked, "holdAtLeast").asString());
    }

    private static AnnotationValue member(AnnotationInstance locked, String name) {
        return locked.valueWithDefault(LOCKED_DECLARATION, name);
    }

    /** The classes key templates walk through: their getters and fields are read reflectively at run time. */
    private static SortedSet<String> keyPathTypes(LockPlan plan, JandexShapes.JandexMethod shape) {
        SortedSet<String> types = new TreeSet<>();
        for (var bound : plan.keys()) {
            var placeholders = bound.template().placeholders();
            for (int i = 0; i < placeholders.size(); i++) {
                var current = (JandexShapes.JandexType)
                        shape.parameters().get(bound.parameterIndexes().get(i)).type();
                for (String property : placeholders.get(i).path()) {
                    types.add(current.name());
                    current = current.property(property).orElseThrow();
                }
            }
        }
        return types;
    }

    private static String binaryName(Type type) {
        return switch (type.kind()) {
            case PRIMITIVE -> type.asPrimitiveType().name().toString();
            case ARRAY -> type.name().toString().replace('/', '.');
            default -> type.name().toString();
        };
    }

    private static IndexView indexOf(Class<?> type) {
        try {
            return Index.of(type);
        } catch (IOException e) {
            throw new UncheckedIOException("Padlock cannot read " + type.getName() + "'s class file", e);
        }
    }
}
