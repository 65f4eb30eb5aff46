package dev.padlock.quarkus.deployment;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import io.quarkus.arc.processor.BeanInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
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
 * Turns the {@code @Locked} methods of ArC's beans into Padlock's terms: each method's shape (Jandex), its spec
 * (the binding's members, {@link Locked}'s own defaults filled in), the shared rules' verdict, and, for a valid
 * method, a {@link LockedMethodBuildItem} with the types its key templates walk through. Problems are collected,
 * not thrown, so the build reports them all at once.
 */
final class LockedMethodScanner {

    /** {@link Locked}'s own class file, for its members' defaults: the interceptor jar carries no Jandex index. */
    private static final IndexView LOCKED_DECLARATION = indexOf(Locked.class);

    private final IndexView index;
    private final LockedMethodValidator validator;
    private final List<String> problems = new ArrayList<>();
    private final List<LockPlan> plans = new ArrayList<>();
    private final Map<String, LockedMethodBuildItem> methods = new TreeMap<>();

    LockedMethodScanner(IndexView index, LockedMethodValidator validator) {
        this.index = index;
        this.validator = validator;
    }

    /** A bean ArC keeps: its valid methods are recorded for run time. */
    void scan(BeanInfo bean) {
        scan(bean, methods);
    }

    /**
     * A bean ArC removed as unused, so its methods can never be called; their mistakes are still reported now
     * rather than the day a bean starts to use them. Nothing of it is recorded.
     */
    void checkRemoved(BeanInfo bean) {
        scan(bean, new TreeMap<>());
    }

    /** Every problem found so far, in the order found. */
    List<String> problems() {
        return problems;
    }

    /** The plans of every valid method, removed beans' included: lock types must agree across all of them. */
    List<LockPlan> plans() {
        return plans;
    }

    /** The valid methods of the kept beans, ordered by {@link LockedMethodBuildItem#id()}. */
    Collection<LockedMethodBuildItem> methods() {
        return methods.values();
    }

    private void scan(BeanInfo bean, Map<String, LockedMethodBuildItem> found) {
        for (var intercepted : bean.getInterceptedMethodsBindings().entrySet()) {
            intercepted.getValue().stream()
                    .filter(a -> a.name().equals(PadlockDotNames.LOCKED))
                    .findFirst()
                    .ifPresent(locked -> check(intercepted.getKey(), locked, found));
        }
        // ArC does not intercept static or final methods, so they are not in the map above (private ones
        // fail ArC's own check first).
        for (MethodInfo method : bean.getImplClazz().methods()) {
            AnnotationInstance locked = method.annotation(PadlockDotNames.LOCKED);
            if (locked != null && locked.target().kind() == AnnotationTarget.Kind.METHOD) {
                JandexShapes.JandexMethod shape = JandexShapes.of(method, index);
                if (!shape.isInterceptable()) {
                    problems.addAll(validator.validate(shape, spec(locked)).problems());
                }
            }
        }
    }

    private void check(MethodInfo method, AnnotationInstance locked, Map<String, LockedMethodBuildItem> found) {
        JandexShapes.JandexMethod shape = JandexShapes.of(method, index);
        LockedSpec spec = spec(locked);
        LockedMethodValidator.Result result = validator.validate(shape, spec);
        if (!result.isValid()) {
            problems.addAll(result.problems());
            return;
        }
        plans.add(result.plan());
        List<String> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < method.parametersCount(); i++) {
            types.add(binaryName(method.parameterType(i)));
            String name = method.parameterName(i);
            names.add(name == null ? "" : name);
        }
        String id = shape.display();
        LockedMethodBuildItem item = new LockedMethodBuildItem(
                id,
                shape.declaringClass(),
                method.name(),
                types,
                names,
                locked,
                spec,
                keyPathTypes(result.plan(), shape));
        // A method ArC reports twice (inherited into two beans) must carry one binding.
        LockedMethodBuildItem earlier = found.putIfAbsent(id, item);
        if (earlier != null && !earlier.spec().equals(spec)) {
            problems.add(
                    LockedMethodValidator.inheritedConflict(id, earlier.spec().value(), spec.value()));
        }
    }

    /** The binding's members, with {@link Locked}'s declared defaults where the instance leaves them out. */
    static LockedSpec spec(AnnotationInstance locked) {
        return new LockedSpec(
                member(locked, "value").asString(),
                List.of(member(locked, "key").asStringArray()),
                LockType.valueOf(member(locked, "type").asEnum()),
                member(locked, "waitTime").asString(),
                member(locked, "leaseTime").asString(),
                OnFailure.valueOf(member(locked, "onFailure").asEnum()));
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
