package dev.padlock.quarkus.deployment;

import dev.padlock.contract.NamedLockBeansContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link NamedLockBeansContract} on Quarkus. */
class NamedLockBeansOnQuarkusTest extends NamedLockBeansContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
