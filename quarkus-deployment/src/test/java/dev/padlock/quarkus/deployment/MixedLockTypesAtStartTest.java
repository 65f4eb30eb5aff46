package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.contract.MixedLockTypes;
import dev.padlock.contract.Refusal;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A per-lock type set only at run time, after the build checked the types, that mixes types on one key stops the
 * start-up with the same message ({@link MixedLockTypes#CONFIGURED_TYPE}). (It fails before Padlock connects, so no
 * Redis is needed.)
 */
class MixedLockTypesAtStartTest {

    private static final Refusal REFUSAL = MixedLockTypes.CONFIGURED_TYPE;

    @RegisterExtension
    static final QuarkusExtensionTest app = runtimeConfig(new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(REFUSAL.application().beanClasses()))
            // start-up only re-checks the beans ArC keeps, and nothing injects these
            .overrideConfigKey("quarkus.arc.unremovable-types", "dev.padlock.contract.**")
            .overrideConfigKey("quarkus.padlock.devservices.enabled", "false")
            .overrideConfigKey("padlock.redis.address", "redis://127.0.0.1:1")
            .assertException(failure -> {
                REFUSAL.check(failure);
                assertThat(Refusal.text(failure)).contains("Padlock cannot start, 1 problem(s)");
            }));

    /** The refusal's configuration, given at run time only. */
    private static QuarkusExtensionTest runtimeConfig(QuarkusExtensionTest test) {
        REFUSAL.application().config().forEach(test::overrideRuntimeConfigKey);
        return test;
    }

    @Test
    void doesNotStart() {
        // assertException checks the message
    }
}
