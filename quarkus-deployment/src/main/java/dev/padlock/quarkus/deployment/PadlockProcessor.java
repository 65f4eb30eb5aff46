package dev.padlock.quarkus.deployment;

import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.InterceptorPriority;
import dev.padlock.core.config.Problems;
import dev.padlock.core.engine.CurrentLockContext;
import dev.padlock.core.engine.LockedInterceptor;
import dev.padlock.core.engine.LocksBean;
import dev.padlock.core.setup.PadlockSetup;
import dev.padlock.core.setup.PadlockSetup.Connection;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import jakarta.enterprise.inject.spi.DeploymentException;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTransformation;

/**
 * Replaces the portable extension on Quarkus (ArC runs none): registers {@code @Locked} and its interceptor, and
 * validates every {@code @Locked} method at build time with the shared rules (one build error for all problems).
 * The beans and the start live in {@link PadlockRuntimeProcessor}, native-image needs in
 * {@link PadlockNativeProcessor}.
 */
class PadlockProcessor {

    static final String FEATURE = "padlock";

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

    /** The {@code LockContext} and {@code Locks} beans, each kept only when the application injects it. */
    @BuildStep
    AdditionalBeanBuildItem lockContext() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(CurrentLockContext.class, LocksBean.class)
                .build();
    }

    /**
     * {@code padlock.interceptor-priority}, read at build time: ArC fixes interceptor order then. A bad value
     * fails the build with ArC's other deployment problems, not on its own before them.
     */
    @BuildStep
    void interceptorPriority(
            BuildProducer<AnnotationsTransformerBuildItem> transformers,
            BuildProducer<ValidationErrorBuildItem> errors) {
        Problems problems = new Problems();
        InterceptorPriority.read(ConfigView.of(ConfigProvider.getConfig()), problems)
                .ifPresent(priority ->
                        transformers.produce(new AnnotationsTransformerBuildItem(AnnotationTransformation.forClasses()
                                .whenClass(LockedInterceptor.class)
                                .transform(ctx -> {
                                    ctx.remove(a -> a.name().equals(PadlockDotNames.PRIORITY));
                                    ctx.add(AnnotationInstance.builder(PadlockDotNames.PRIORITY)
                                            .value(priority)
                                            .build());
                                }))));
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(new DeploymentException(String.join("\n", problems.list()))));
        }
    }

    /**
     * Every {@code @Locked} method ArC will intercept, with the binding ArC resolved (method, class, inherited
     * or stereotype), plus {@code @Locked} on methods it cannot intercept; all problems in one error. Each valid
     * method becomes a {@link LockedMethodBuildItem}.
     */
    @BuildStep
    void validate(
            ValidationPhaseBuildItem phase,
            NamedLockPointsBuildItem namedLocks,
            CombinedIndexBuildItem combinedIndex,
            BuildProducer<ValidationErrorBuildItem> errors,
            BuildProducer<LockedMethodBuildItem> lockedMethods) {
        LockedMethodScanner scanner = new LockedMethodScanner(combinedIndex.getIndex());
        phase.getContext().beans().classBeans().forEach(scanner::scan);
        phase.getContext().removedBeans().classBeans().forEach(scanner::checkRemoved);
        // The client is created at run time; the connection keys are checked now already.
        PadlockSetup<String> setup = PadlockSetup.plan(
                ConfigView.of(ConfigProvider.getConfig()),
                scanner.inputs(),
                namedLocks.injectionPoints(),
                Connection.CHECK_ONLY,
                null);
        if (!setup.problems().isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(
                    new DeploymentException(setup.problems().summary("Padlock found"))));
        }
        scanner.items(setup).forEach(lockedMethods::produce);
    }
}
