package dev.padlock.quarkus.deployment;

import dev.padlock.contract.InterceptorOrderContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link InterceptorOrderContract} on Quarkus. */
class InterceptorOrderOnQuarkusTest extends InterceptorOrderContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
