package dev.padlock.quarkus.deployment;

import dev.padlock.contract.ConfiguredPriorityContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConfiguredPriorityContract} on Quarkus, where padlock.interceptor-priority is a build-time value. */
class InterceptorPriorityOnQuarkusTest extends ConfiguredPriorityContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
