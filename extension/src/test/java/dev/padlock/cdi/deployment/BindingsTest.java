package dev.padlock.cdi.deployment;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.BindingsContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link BindingsContract} on Weld. */
class BindingsTest extends BindingsContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);
}
