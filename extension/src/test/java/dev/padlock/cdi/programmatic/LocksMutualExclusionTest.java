package dev.padlock.cdi.programmatic;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.LocksMutualExclusionContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LocksMutualExclusionContract} on Weld. */
class LocksMutualExclusionTest extends LocksMutualExclusionContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);
}
