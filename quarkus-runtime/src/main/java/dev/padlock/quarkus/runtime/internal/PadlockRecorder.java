package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.engine.PadlockEngine;
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

    public void start(
            RuntimeValue<PadlockRuntime> runtime,
            List<LockedMethod> methods,
            List<NamedLockPoint> namedLocks,
            boolean micrometer,
            boolean tracing,
            ShutdownContext shutdown) {
        runtime.getValue().start(methods, namedLocks, micrometer, tracing);
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
