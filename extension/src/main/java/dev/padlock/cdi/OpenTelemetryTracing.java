package dev.padlock.cdi;

import dev.padlock.core.events.LockEvents;
import dev.padlock.core.tracing.OpenTelemetryLockEvents;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * The application's OpenTelemetry, when it traces. The only class of this module that names OpenTelemetry: the
 * extension loads it only after finding the API on its class path (see {@link PadlockExtension#detectOpenTelemetry}),
 * so applications without it never load it.
 */
final class OpenTelemetryTracing {

    private static final System.Logger LOG = System.getLogger(OpenTelemetryTracing.class.getName());

    private OpenTelemetryTracing() {}

    /**
     * Padlock's spans, looked up once: through the application's {@code OpenTelemetry} bean when it has one (what a
     * MicroProfile Telemetry server provides, or a producer), else the global instance when something set it (the
     * OpenTelemetry Java agent does, before the application starts); {@code null} when neither, or when several beans
     * and none is the default (and one INFO line). Never sets the global instance: asking for it before the
     * application set it would fix it to a no-op for good.
     */
    static LockEvents events(BeanManager beans, boolean applicationHasBean) {
        if (applicationHasBean) {
            Instance<OpenTelemetry> instances = beans.createInstance().select(OpenTelemetry.class);
            if (instances.isResolvable()) {
                return new OpenTelemetryLockEvents(instances.get());
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "Padlock records no OpenTelemetry spans: the application has several OpenTelemetry beans and none"
                            + " resolves as the default; make one of them the only @Default OpenTelemetry bean");
            return null;
        }
        return globalIsSet() ? new OpenTelemetryLockEvents(GlobalOpenTelemetry.get()) : null;
    }

    private static boolean globalIsSet() {
        try {
            return GlobalOpenTelemetry.isSet();
        } catch (LinkageError e) {
            // an older API without isSet(): get() would fix the global instance, so leave it alone
            return false;
        }
    }
}
