package dev.padlock.cdi.leases;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.LeasesContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LeasesContract} on Weld. */
class WaitAndLeaseTest extends LeasesContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);
}
