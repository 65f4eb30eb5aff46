package dev.padlock.quarkus.deployment;

import dev.padlock.contract.MixedLockTypes;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Methods and named lock beans that can reach one Redis key with different lock types fail the build ({@link MixedLockTypes}), in the one error listing every problem; READ and WRITE together pass. */
class MixedLockTypesBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.refused(MixedLockTypes.ALL_AT_ONCE);

    @Test
    void theBuildFails() {
        // the extension above checks the message; reaching here means the build failed as expected
    }
}
