package dev.padlock.quarkus.deployment;

import dev.padlock.contract.InvalidLockedMethods;
import dev.padlock.contract.Refusal;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link InvalidLockedMethods} on Quarkus: every problem of every @Locked method and named lock in one build error.
 * (@Locked on a private or final method never gets here: ArC fails the build first, with its own message.)
 */
class BuildErrorsTest {

    @RegisterExtension
    static final QuarkusExtensionTest app =
            OnQuarkus.refused(Refusal.together(InvalidLockedMethods.MEMBERS, InvalidLockedMethods.NAMED_LOCKS));

    @Test
    void theBuildFails() {
        // the extension above checks the message; reaching here means the build failed as expected
    }
}
