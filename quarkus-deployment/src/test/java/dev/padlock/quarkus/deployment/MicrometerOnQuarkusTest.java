package dev.padlock.quarkus.deployment;

import dev.padlock.contract.MetersContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MetersContract} on Quarkus: with {@code quarkus-micrometer}, the build tells Padlock to count its calls in the
 * application's registry, which holds Quarkus's own meters too.
 */
class MicrometerOnQuarkusTest extends MetersContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
