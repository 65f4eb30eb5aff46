package dev.padlock.quarkus.deployment;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.core.CurrentLockContext;
import dev.padlock.core.LockedInterceptor;
import dev.padlock.core.PadlockEngine;
import dev.padlock.core.client.RedisConnectionSettings;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.InterceptorPriority;
import dev.padlock.core.config.Problems;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockTypeConflicts;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.quarkus.runtime.internal.LockedMethod;
import dev.padlock.quarkus.runtime.internal.NamedLockPoint;
import dev.padlock.quarkus.runtime.internal.PadlockRecorder;
import dev.padlock.quarkus.runtime.internal.PadlockRuntime;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.runtime.RuntimeValue;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;
import org.jboss.jandex.Type;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;

/**
 * Replaces the portable extension on Quarkus (ArC runs none): registers {@code @Locked} and its interceptor,
 * validates every {@code @Locked} method at build time with the shared rules (one build error for all
 * problems), and declares Padlock's beans.
 */
class PadlockProcessor {

    static final String FEATURE = "padlock";
    static final DotName LOCKED = DotName.createSimple(Locked.class);
    static final DotName NAMED = DotName.createSimple("jakarta.inject.Named");
    static final DotName INJECT = DotName.createSimple("jakarta.inject.Inject");
    static final DotName PRIORITY = DotName.createSimple("jakarta.annotation.Priority");

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * The interceptor jar has no beans.xml or Jandex index; listing the binding itself makes ArC know
     * {@code @Locked} as an interceptor binding.
     */
    @BuildStep
    AdditionalBeanBuildItem interceptor() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(LockedInterceptor.class, Locked.class)
                .setUnremovable()
                .build();
    }

    /** The {@code LockContext} bean, kept only when the application injects it. */
    @BuildStep
    AdditionalBeanBuildItem lockContext() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(CurrentLockContext.class)
                .build();
    }

    /** {@code padlock.interceptor-priority}, read at build time: ArC fixes interceptor order then. */
    @BuildStep
    void interceptorPriority(BuildProducer<AnnotationsTransformerBuildItem> transformers) {
        Problems problems = new Problems();
        InterceptorPriority.read(ConfigView.of(ConfigProvider.getConfig()), problems)
                .ifPresent(priority ->
                        transformers.produce(new AnnotationsTransformerBuildItem(AnnotationTransformation.forClasses()
                                .whenClass(LockedInterceptor.class)
                                .transform(ctx -> {
                                    ctx.remove(a -> a.name().equals(PRIORITY));
                                    ctx.add(AnnotationInstance.builder(PRIORITY)
                                            .value(priority)
                                            .build());
                                }))));
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("\n", problems.list()));
        }
    }

    @BuildStep
    NamedLockPointsBuildItem namedLockPoints(BeanArchiveIndexBuildItem beanArchive) {
        IndexView index = beanArchive.getIndex();
        List<NamedLockPoint> points = new ArrayList<>();
        for (AnnotationInstance named : index.getAnnotations(NAMED)) {
            AnnotationTarget target = named.target();
            AnnotationValue value = named.value();
            if (target.kind() == AnnotationTarget.Kind.FIELD) {
                FieldInfo field = target.asField();
                kind(field.type())
                        .filter(k -> field.hasAnnotation(INJECT))
                        .ifPresent(k -> points.add(new NamedLockPoint(
                                value == null || value.asString().isEmpty() ? field.name() : value.asString(),
                                k.name(),
                                "field " + field.declaringClass().name() + "." + field.name())));
            } else if (target.kind() == AnnotationTarget.Kind.METHOD_PARAMETER) {
                MethodParameterInfo param = target.asMethodParameter();
                kind(param.type())
                        .ifPresent(k -> points.add(new NamedLockPoint(
                                value == null ? "" : value.asString(),
                                k.name(),
                                "parameter of "
                                        + param.method().declaringClass().name() + "#"
                                        + param.method().name())));
            }
        }
        points.sort(Comparator.comparing(NamedLockPoint::getName)
                .thenComparing(NamedLockPoint::getKind)
                .thenComparing(NamedLockPoint::getWhere));
        return new NamedLockPointsBuildItem(List.copyOf(points));
    }

    private static java.util.Optional<NamedLocks.Kind> kind(Type type) {
        return NamedLocks.Kind.ofTypeName(type.name().toString());
    }

    /**
     * The beans: the engine the interceptor dispatches through, Padlock's {@code RedissonClient} (a default
     * bean, so an application's own client wins), one bean per named lock.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    PadlockRuntimeBuildItem beans(
            PadlockRecorder recorder,
            NamedLockPointsBuildItem namedLocks,
            BuildProducer<SyntheticBeanBuildItem> beans) {
        RuntimeValue<PadlockRuntime> runtime = recorder.create();
        beans.produce(SyntheticBeanBuildItem.configure(PadlockEngine.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .supplier(recorder.engine(runtime))
                .done());
        beans.produce(SyntheticBeanBuildItem.configure(RedissonClient.class)
                .scope(Singleton.class)
                .defaultBean()
                .unremovable()
                .setRuntimeInit()
                .supplier(recorder.client(runtime))
                .done());
        // One bean per (name, kind), even where two kinds share a name: the validation step reports that
        // conflict in Padlock's words, rather than ArC reporting an unsatisfied dependency first.
        Set<String> declared = new TreeSet<>();
        for (NamedLockPoint p : namedLocks.points()) {
            NamedLocks.Kind kind = NamedLocks.Kind.valueOf(p.getKind());
            if (p.getName().isBlank() || !declared.add(p.getName() + '/' + kind)) {
                continue;
            }
            beans.produce(SyntheticBeanBuildItem.configure(typeOf(kind))
                    .scope(Dependent.class)
                    .addQualifier()
                    .annotation(NAMED)
                    .addValue("value", p.getName())
                    .done()
                    .setRuntimeInit()
                    .supplier(recorder.namedLock(runtime, p.getName()))
                    .done());
        }
        return new PadlockRuntimeBuildItem(runtime);
    }

    private static Class<?> typeOf(NamedLocks.Kind kind) {
        switch (kind) {
            case READ_WRITE:
                return RReadWriteLock.class;
            case FENCED:
                return RFencedLock.class;
            case LOCK:
            default:
                return RLock.class;
        }
    }

    /**
     * Every {@code @Locked} method ArC will intercept, with the binding ArC resolved (method, class, inherited
     * or stereotype), plus {@code @Locked} on methods it cannot intercept; all problems in one error.
     */
    @BuildStep
    void validate(
            ValidationPhaseBuildItem phase,
            NamedLockPointsBuildItem namedLocks,
            CombinedIndexBuildItem combinedIndex,
            BuildProducer<ValidationPhaseBuildItem.ValidationErrorBuildItem> errors,
            BuildProducer<LockedMethodsBuildItem> lockedMethods) {
        IndexView index = combinedIndex.getIndex();
        ConfigView config = ConfigView.of(ConfigProvider.getConfig());
        Problems problems = new Problems();
        GlobalDefaults settings = GlobalDefaults.read(config, problems);
        RedisConnectionSettings.read(config, problems);
        LockedMethodValidator validator = new LockedMethodValidator(settings, config);

        Map<String, LockedMethod> methods = new java.util.TreeMap<>();
        Set<String> keyPathTypes = new TreeSet<>();
        List<LockPlan> plans = new ArrayList<>();
        for (BeanInfo bean : phase.getContext().beans().classBeans()) {
            checkBean(bean, index, validator, problems, methods, keyPathTypes, plans);
        }
        // ArC removed these as unused, so they can never be called; their mistakes are still reported now
        // rather than the day a bean starts to use them. Nothing of them is recorded for run time.
        for (BeanInfo bean : phase.getContext().removedBeans().classBeans()) {
            checkBean(bean, index, validator, problems, new java.util.TreeMap<>(), new TreeSet<>(), plans);
        }
        List<NamedLocks.InjectionPoint> points = new ArrayList<>();
        for (NamedLockPoint p : namedLocks.points()) {
            points.add(new NamedLocks.InjectionPoint(p.getName(), NamedLocks.Kind.valueOf(p.getKind()), p.getWhere()));
        }
        NamedLocks.Result named = NamedLocks.plan(points, settings, config);
        problems.addAll(named.problems());
        problems.addAll(LockTypeConflicts.find(plans, named.locks(), config));

        if (!problems.isEmpty()) {
            errors.produce(new ValidationPhaseBuildItem.ValidationErrorBuildItem(
                    new DeploymentException(problems.summary("Padlock found"))));
        }
        lockedMethods.produce(new LockedMethodsBuildItem(List.copyOf(methods.values()), List.copyOf(keyPathTypes)));
    }

    private static void checkBean(
            BeanInfo bean,
            IndexView index,
            LockedMethodValidator validator,
            Problems problems,
            Map<String, LockedMethod> methods,
            Set<String> keyPathTypes,
            List<LockPlan> plans) {
        for (var intercepted : bean.getInterceptedMethodsBindings().entrySet()) {
            AnnotationInstance locked = intercepted.getValue().stream()
                    .filter(a -> a.name().equals(LOCKED))
                    .findFirst()
                    .orElse(null);
            if (locked != null) {
                check(intercepted.getKey(), locked, index, validator, problems, methods, keyPathTypes, plans);
            }
        }
        // ArC does not intercept static or final methods, so they are not in the map above (private ones
        // fail ArC's own check first).
        for (MethodInfo method : bean.getImplClazz().methods()) {
            AnnotationInstance locked = method.annotation(LOCKED);
            if (locked != null && locked.target().kind() == AnnotationTarget.Kind.METHOD) {
                JandexShapes.JandexMethod shape = JandexShapes.of(method, index);
                if (!shape.isInterceptable()) {
                    problems.addAll(
                            validator.validate(shape, spec(locked, index)).problems());
                }
            }
        }
    }

    private static void check(
            MethodInfo method,
            AnnotationInstance locked,
            IndexView index,
            LockedMethodValidator validator,
            Problems problems,
            Map<String, LockedMethod> methods,
            Set<String> keyPathTypes,
            List<LockPlan> plans) {
        JandexShapes.JandexMethod shape = JandexShapes.of(method, index);
        LockedSpec spec = spec(locked, index);
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
        LockedMethod recorded = new LockedMethod(
                shape.declaringClass(),
                method.name(),
                types,
                names,
                spec.value(),
                spec.key(),
                spec.type().name(),
                spec.waitTime(),
                spec.leaseTime(),
                spec.onFailure().name());
        LockedMethod earlier = methods.putIfAbsent(id, recorded);
        if (earlier != null && !sameBinding(earlier, recorded)) {
            LockedMethodValidator.inheritedConflict(problems, id, earlier.getValue(), recorded.getValue());
        }
        collectKeyPathTypes(result.plan(), shape, keyPathTypes);
    }

    private static boolean sameBinding(LockedMethod a, LockedMethod b) {
        return a.getValue().equals(b.getValue())
                && a.getKey().equals(b.getKey())
                && a.getType().equals(b.getType())
                && a.getWaitTime().equals(b.getWaitTime())
                && a.getLeaseTime().equals(b.getLeaseTime())
                && a.getOnFailure().equals(b.getOnFailure());
    }

    /** The classes key templates walk through: their getters and fields are read reflectively at run time. */
    private static void collectKeyPathTypes(
            dev.padlock.core.plan.LockPlan plan, JandexShapes.JandexMethod shape, Set<String> types) {
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
    }

    private static String binaryName(Type type) {
        if (type.kind() == Type.Kind.PRIMITIVE) {
            return type.asPrimitiveType().name().toString();
        }
        if (type.kind() == Type.Kind.ARRAY) {
            return type.name().toString().replace('/', '.');
        }
        return type.name().toString();
    }

    static LockedSpec spec(AnnotationInstance locked, IndexView index) {
        AnnotationValue key = locked.value("key");
        return new LockedSpec(
                string(locked, "value"),
                key == null ? List.of() : List.of(key.asStringArray()),
                LockType.valueOf(enumValue(locked, "type", LockType.REENTRANT.name())),
                string(locked, "waitTime"),
                string(locked, "leaseTime"),
                OnFailure.valueOf(enumValue(locked, "onFailure", OnFailure.THROW.name())));
    }

    private static String string(AnnotationInstance a, String member) {
        AnnotationValue v = a.value(member);
        return v == null ? "" : v.asString();
    }

    private static String enumValue(AnnotationInstance a, String member, String fallback) {
        AnnotationValue v = a.value(member);
        return v == null ? fallback : v.asEnum();
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void start(
            PadlockRecorder recorder,
            PadlockRuntimeBuildItem runtime,
            LockedMethodsBuildItem methods,
            NamedLockPointsBuildItem namedLocks,
            ShutdownContextBuildItem shutdown) {
        recorder.start(runtime.runtime(), methods.methods(), namedLocks.points(), shutdown);
    }
}
