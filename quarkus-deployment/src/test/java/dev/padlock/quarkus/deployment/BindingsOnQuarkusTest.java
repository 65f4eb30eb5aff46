package dev.padlock.quarkus.deployment;

import dev.padlock.contract.BindingsContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link BindingsContract} on Quarkus. */
class BindingsOnQuarkusTest extends BindingsContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
