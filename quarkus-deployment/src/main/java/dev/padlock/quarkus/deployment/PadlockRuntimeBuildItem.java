package dev.padlock.quarkus.deployment;

import dev.padlock.quarkus.runtime.internal.PadlockRuntime;
import io.quarkus.builder.item.SimpleBuildItem;
import io.quarkus.runtime.RuntimeValue;

/** The run-time holder the synthetic beans refer to, filled by the start step. */
public final class PadlockRuntimeBuildItem extends SimpleBuildItem {

    private final RuntimeValue<PadlockRuntime> runtime;

    PadlockRuntimeBuildItem(RuntimeValue<PadlockRuntime> runtime) {
        this.runtime = runtime;
    }

    RuntimeValue<PadlockRuntime> runtime() {
        return runtime;
    }
}
