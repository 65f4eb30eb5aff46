package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.events.LockEvents;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;
import java.util.List;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;

/**
 * Creates Padlock's runtime state. The beans are declared before ArC validates the application, the methods
 * are known after; so {@link #create()} makes an empty holder the bean suppliers refer to, and
 * {@link #start} fills it before any bean is used.
 */
@Recorder
public class PadlockRecorder {

    public RuntimeValue<PadlockRuntime> create() {
        return new RuntimeValue<>(new PadlockRuntime());
    }

    /**
     * Padlock's meters in {@code quarkus-micrometer}'s registry. The build records this call only when the application
     * has Micrometer: a native image links only the recorder methods it calls, and without Micrometer {@link
     * MicrometerMeters} cannot be linked.
     */
    public RuntimeValue<LockEvents> micrometerMeters() {
        return new RuntimeValue<>(MicrometerMeters.events());
    }

    /** Padlock's spans on {@code quarkus-opentelemetry}; recorded only with its tracer, as {@link #micrometerMeters}. */
    public RuntimeValue<LockEvents> openTelemetrySpans() {
        return new RuntimeValue<>(OpenTelemetrySpans.events());
    }

    public RuntimeValue<LockEvents> noEvents() {
        return new RuntimeValue<>(LockEvents.NONE);
    }

    public void start(
            RuntimeValue<PadlockRuntime> runtime,
            List<LockedMethod> methods,
            List<NamedLockPoint> namedLocks,
            RuntimeValue<LockEvents> meters,
            RuntimeValue<LockEvents> spans,
            ShutdownContext shutdown) {
        runtime.getValue().start(methods, namedLocks, meters.getValue(), spans.getValue());
        // Closes the client on stop and before each dev-mode reload.
        shutdown.addShutdownTask(runtime.getValue()::shutdown);
    }

    public Supplier<PadlockEngine> engine(RuntimeValue<PadlockRuntime> runtime) {
        return () -> runtime.getValue().engine();
    }

    public Supplier<RedissonClient> client(RuntimeValue<PadlockRuntime> runtime) {
        return () -> runtime.getValue().managedClient();
    }

    public Supplier<Object> namedLock(RuntimeValue<PadlockRuntime> runtime, String name) {
        return () -> runtime.getValue().namedLock(name);
    }
}
