package dev.padlock.cdi.exclusion;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.MutualExclusionContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link MutualExclusionContract} on Weld. */
class MutualExclusionTest extends MutualExclusionContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);
}
