package dev.padlock.quarkus.deployment;

import dev.padlock.Locked;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.quarkus.runtime.internal.LockedMethod;
import dev.padlock.quarkus.runtime.internal.NamedLockPoint;
import dev.padlock.quarkus.runtime.internal.PadlockRecorder;
import dev.padlock.quarkus.runtime.internal.PadlockRuntime;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem.ExtendedBeanConfigurator;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.GeneratedClassGizmo2Adaptor;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AnnotationProxyBuildItem;
import io.quarkus.deployment.builditem.GeneratedClassBuildItem;
import io.quarkus.deployment.builditem.GeneratedResourceBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.gizmo2.ClassOutput;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.metrics.MetricsFactory;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Singleton;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.MethodParameterInfo;
import org.jboss.jandex.Type;
import org.redisson.api.RedissonClient;

/**
 * What a running application gets from Padlock: the engine the interceptor dispatches through, Padlock's
 * {@code RedissonClient}, one bean per {@code @Named} lock, and the start-up step that fills them.
 */
class PadlockRuntimeProcessor {

    @BuildStep
    NamedLockPointsBuildItem namedLockPoints(BeanArchiveIndexBuildItem beanArchive) {
        List<NamedLockPoint> points = new ArrayList<>();
        for (AnnotationInstance named : beanArchive.getIndex().getAnnotations(PadlockDotNames.NAMED)) {
            AnnotationTarget target = named.target();
            AnnotationValue value = named.value();
            if (target.kind() == AnnotationTarget.Kind.FIELD) {
                FieldInfo field = target.asField();
                kind(field.type())
                        .filter(k -> field.hasAnnotation(PadlockDotNames.INJECT))
                        .ifPresent(k -> points.add(new NamedLockPoint(
                                value == null || value.asString().isEmpty() ? field.name() : value.asString(),
                                k,
                                "field " + field.declaringClass().name() + "." + field.name())));
            } else if (target.kind() == AnnotationTarget.Kind.METHOD_PARAMETER) {
                MethodParameterInfo param = target.asMethodParameter();
                kind(param.type())
                        .ifPresent(k -> points.add(new NamedLockPoint(
                                value == null ? "" : value.asString(),
                                k,
                                "parameter of "
                                        + param.method().declaringClass().name() + "#"
                                        + param.method().name())));
            }
        }
        points.sort(Comparator.comparing(NamedLockPoint::getName)
                .thenComparing(p -> p.getKind().name())
                .thenComparing(NamedLockPoint::getWhere));
        return new NamedLockPointsBuildItem(List.copyOf(points));
    }

    private static Optional<NamedLocks.Kind> kind(Type type) {
        return NamedLocks.Kind.ofTypeName(type.name().toString());
    }

    /**
     * The beans, declared before ArC validates the application: the engine, Padlock's {@code RedissonClient}
     * (a default bean, so an application's own client wins), one bean per named lock.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    PadlockRuntimeBuildItem beans(
            PadlockRecorder recorder,
            NamedLockPointsBuildItem namedLocks,
            BuildProducer<SyntheticBeanBuildItem> beans) {
        RuntimeValue<PadlockRuntime> runtime = recorder.create();
        beans.produce(runtimeBean(PadlockEngine.class, Singleton.class, recorder.engine(runtime))
                .unremovable()
                .done());
        beans.produce(runtimeBean(RedissonClient.class, Singleton.class, recorder.client(runtime))
                .defaultBean()
                .unremovable()
                .done());
        // One bean per (name, kind), even where two kinds share a name: the validation step reports that
        // conflict in Padlock's words, rather than ArC reporting an unsatisfied dependency first.
        Set<String> declared = new TreeSet<>();
        for (NamedLockPoint p : namedLocks.points()) {
            if (p.getName().isBlank() || !declared.add(p.getName() + '/' + p.getKind())) {
                continue;
            }
            beans.produce(runtimeBean(p.getKind().type(), Dependent.class, recorder.namedLock(runtime, p.getName()))
                    .addQualifier()
                    .annotation(PadlockDotNames.NAMED)
                    .addValue("value", p.getName())
                    .done()
                    .done());
        }
        return new PadlockRuntimeBuildItem(runtime);
    }

    /** A synthetic bean created at run-time init, when the recorded state it draws on exists. */
    private static ExtendedBeanConfigurator runtimeBean(
            Class<?> type, Class<? extends Annotation> scope, Supplier<?> supplier) {
        return SyntheticBeanBuildItem.configure(type)
                .scope(scope)
                .setRuntimeInit()
                .supplier(supplier);
    }

    /**
     * Fills the runtime holder with the validated methods, each binding recorded as a {@code @Locked} annotation
     * proxy (its literal class generated here), in a stable order so builds are reproducible.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void start(
            PadlockRecorder recorder,
            PadlockRuntimeBuildItem runtime,
            List<LockedMethodBuildItem> methods,
            NamedLockPointsBuildItem namedLocks,
            AnnotationProxyBuildItem annotationProxy,
            BuildProducer<GeneratedClassBuildItem> generatedClasses,
            BuildProducer<GeneratedResourceBuildItem> generatedResources,
            ShutdownContextBuildItem shutdown,
            Optional<MetricsCapabilityBuildItem> metrics,
            Capabilities capabilities) {
        ClassOutput literals = new GeneratedClassGizmo2Adaptor(generatedClasses, generatedResources, true);
        List<LockedMethod> recorded = methods.stream()
                .sorted(Comparator.comparing(LockedMethodBuildItem::id))
                .map(m -> new LockedMethod(
                        m.declaringClass(),
                        m.name(),
                        m.parameterTypes(),
                        m.parameterNames(),
                        annotationProxy.builder(m.binding(), Locked.class).build(literals)))
                .toList();
        // Meters only with quarkus-micrometer, decided here so that applications without it never load Micrometer;
        // only the recorder method that names it is called, so a native image without Micrometer never links it.
        boolean micrometer = metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER);
        // Spans only with quarkus-opentelemetry's tracer, likewise: without it no OpenTelemetry class is loaded.
        boolean tracing = capabilities.isPresent(Capability.OPENTELEMETRY_TRACER);
        recorder.start(
                runtime.runtime(),
                recorded,
                namedLocks.points(),
                micrometer ? recorder.micrometerMeters() : recorder.noEvents(),
                tracing ? recorder.openTelemetrySpans() : recorder.noEvents(),
                shutdown);
    }
}
