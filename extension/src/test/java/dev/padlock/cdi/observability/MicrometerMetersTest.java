package dev.padlock.cdi.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.MetersContract;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MetersContract} on Weld, where the application's registry is the one Padlock counts in: it holds Padlock's
 * meters and nothing else.
 */
class MicrometerMetersTest extends MetersContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);

    @Override
    protected void checkTheRestOf(MeterRegistry registry) {
        assertThat(registry.getMeters())
                .as("every meter is Padlock's")
                .allSatisfy(meter -> assertThat(meter.getId().getName()).startsWith("padlock."));
    }
}
