package dev.padlock.quarkus.deployment;

import dev.padlock.contract.UnstableKeys;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Keys rendered from identity hashes, arrays, dates and unordered sets fail the build ({@link UnstableKeys}), judged from the index (and the JDK's classes through the class loader); the stable ones pass. */
class UnstableKeysBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.refused(UnstableKeys.REFUSAL.beside(UnstableKeys.ACCEPTED));

    @Test
    void theBuildFails() {
        // the extension above checks the message; reaching here means the build failed as expected
    }
}
