package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.contract.ReadableMeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Without the metrics capability (here {@code quarkus-micrometer} switched off, as if it were absent) Padlock binds no
 * meters and never loads Micrometer, and {@code @Locked} works as ever. A registry the application has of its own is
 * left alone: Padlock follows what Quarkus decided at build time, not what happens to be on the class path.
 */
class MicrometerDisabledOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Stock.class, ReadableMeterRegistry.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("quarkus.micrometer.enabled", "false");

    @ApplicationScoped
    public static class Stock {
        @Locked(value = "q-unmetered", key = "{sku}")
        public String reserve(String sku) {
            return sku;
        }
    }

    @Inject
    Stock stock;

    @Inject
    SimpleMeterRegistry registry;

    @Test
    void locksWithoutMeters() {
        assertThat(stock.reserve("sku-1")).isEqualTo("sku-1");

        assertThat(registry.getMeters())
                .noneMatch(meter -> meter.getId().getName().startsWith("padlock."));
        // Nor in Micrometer's global registry, the fallback Padlock would have used had it bound meters.
        assertThat(Metrics.globalRegistry
                        .find("padlock.lock.acquire")
                        .tag("lock", "q-unmetered")
                        .meters())
                .isEmpty();
    }
}
