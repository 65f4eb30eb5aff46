package dev.padlock.quarkus.deployment;

import dev.padlock.quarkus.runtime.internal.PadlockRuntime;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;
import jakarta.inject.Singleton;

/**
 * Offers Padlock's readiness check to SmallRye Health, which makes it a bean only when the application has that
 * extension and {@code quarkus.padlock.health.enabled} is true (as the Quarkus Redis client does with its own).
 */
class PadlockHealthProcessor {

    static final String READINESS_CHECK = "dev.padlock.quarkus.runtime.internal.PadlockReadinessCheck";

    @BuildStep
    HealthBuildItem readinessCheck(PadlockBuildTimeConfig config) {
        return new HealthBuildItem(READINESS_CHECK, config.health().enabled());
    }

    /** The run-time holder as a bean for the check to ask; removed with the check when nothing injects it. */
    @BuildStep
    SyntheticBeanBuildItem runtimeForTheCheck(PadlockRuntimeBuildItem runtime) {
        return SyntheticBeanBuildItem.configure(PadlockRuntime.class)
                .scope(Singleton.class)
                .setRuntimeInit()
                .runtimeValue(runtime.runtime())
                .done();
    }
}
