package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.events.LockEvents;
import dev.padlock.core.tracing.OpenTelemetryLockEvents;
import io.opentelemetry.api.OpenTelemetry;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

/**
 * Padlock's spans on the application's OpenTelemetry. The only class of this module that names OpenTelemetry: {@link
 * PadlockRecorder#openTelemetrySpans} loads it, recorded only when the build found {@code quarkus-opentelemetry}'s
 * tracer capability.
 */
final class OpenTelemetrySpans {

    private OpenTelemetrySpans() {}

    /**
     * Looked up once, at start-up: the {@code OpenTelemetry} bean {@code quarkus-opentelemetry} provides (a no-op one
     * when {@code quarkus.otel.sdk.disabled=true}, so nothing is recorded then); none without such a bean.
     */
    static LockEvents events() {
        InstanceHandle<OpenTelemetry> openTelemetry = Arc.container().instance(OpenTelemetry.class);
        return openTelemetry.isAvailable() ? new OpenTelemetryLockEvents(openTelemetry.get()) : LockEvents.NONE;
    }
}
