package dev.padlock.quarkus.deployment;

import dev.padlock.contract.ConfiguredPriorityContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A padlock.interceptor-priority that is not a number fails the build, naming the key and a value to use. */
class InterceptorPriorityBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.refused(ConfiguredPriorityContract.BAD_PRIORITY);

    @Test
    void theBuildFails() {
        // the extension above checks the message; reaching here means the build failed as expected
    }
}
