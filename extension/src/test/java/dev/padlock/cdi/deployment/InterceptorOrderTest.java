package dev.padlock.cdi.deployment;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.InterceptorOrderContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link InterceptorOrderContract} on Weld. */
class InterceptorOrderTest extends InterceptorOrderContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);
}
