package dev.padlock.cdi.deployment;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.NamedLockBeansContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link NamedLockBeansContract} on Weld. */
class NamedLockBeansTest extends NamedLockBeansContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);
}
