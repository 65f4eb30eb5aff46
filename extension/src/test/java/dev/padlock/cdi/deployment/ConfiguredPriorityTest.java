package dev.padlock.cdi.deployment;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.ConfiguredPriorityContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConfiguredPriorityContract} on Weld, where a bad priority is a definition error. */
class ConfiguredPriorityTest extends ConfiguredPriorityContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);

    @Test
    void aBadPriorityFailsTheDeployment() {
        OnWeld.checkRefused(BAD_PRIORITY);
    }
}
