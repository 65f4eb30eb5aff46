package dev.padlock.quarkus.deployment;

import dev.padlock.contract.LocksMutualExclusionContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LocksMutualExclusionContract} on Quarkus. */
class LocksMutualExclusionOnQuarkusTest extends LocksMutualExclusionContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
