package dev.padlock.cdi;

import dev.padlock.core.events.LockEvents;
import dev.padlock.core.metrics.MicrometerLockEvents;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * The application's Micrometer registry, when it has one. The only class of this module that names Micrometer: the
 * extension loads it only after finding Micrometer on its class path and a {@code MeterRegistry} bean (see {@link
 * PadlockExtension#detectMeterRegistry}), so applications without Micrometer never load it.
 */
final class MicrometerRegistry {

    private static final System.Logger LOG = System.getLogger(MicrometerRegistry.class.getName());

    private MicrometerRegistry() {}

    /**
     * Padlock's meters in the application's registry, looked up once; {@code null} (and one INFO line) when the
     * application has several and none is the default.
     */
    static LockEvents events(BeanManager beans) {
        Instance<MeterRegistry> registries = beans.createInstance().select(MeterRegistry.class);
        if (!registries.isResolvable()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Padlock publishes no Micrometer meters: the application has several MeterRegistry beans and none"
                            + " resolves as the default; make one of them (e.g. a CompositeMeterRegistry) the only"
                            + " @Default MeterRegistry bean");
            return null;
        }
        return new MicrometerLockEvents(registries.get());
    }
}
