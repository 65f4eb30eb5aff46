package dev.padlock.quarkus.deployment;

import dev.padlock.contract.LeasesContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LeasesContract} on Quarkus. */
class LeasesOnQuarkusTest extends LeasesContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
