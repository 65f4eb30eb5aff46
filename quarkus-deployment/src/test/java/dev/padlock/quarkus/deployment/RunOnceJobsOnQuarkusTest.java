package dev.padlock.quarkus.deployment;

import dev.padlock.contract.RunOnceJobsContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RunOnceJobsContract} on Quarkus. */
class RunOnceJobsOnQuarkusTest extends RunOnceJobsContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION);
}
