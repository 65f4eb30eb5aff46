package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.events.LockEvents;
import dev.padlock.core.metrics.MicrometerLockEvents;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

/**
 * Padlock's meters in the application's Micrometer registry. The only class of this module that names Micrometer:
 * {@link PadlockRecorder#micrometerMeters} loads it, recorded only when the build found {@code quarkus-micrometer}.
 */
final class MicrometerMeters {

    private MicrometerMeters() {}

    /** Looked up once, at start-up: the registry {@code quarkus-micrometer} provides, else Micrometer's global one. */
    static LockEvents events() {
        InstanceHandle<MeterRegistry> registry = Arc.container().instance(MeterRegistry.class);
        return new MicrometerLockEvents(registry.isAvailable() ? registry.get() : Metrics.globalRegistry);
    }
}
