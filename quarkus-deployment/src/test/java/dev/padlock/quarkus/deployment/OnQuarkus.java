package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.contract.ApplicationUnderTest;
import dev.padlock.contract.Refusal;
import io.quarkus.test.QuarkusExtensionTest;

/**
 * Runs a contract scenario on Quarkus: the scenario's application, built once for the test class, with the module's
 * test Redis. Register it as the class's {@code QuarkusExtensionTest}:
 * {@code @RegisterExtension static final QuarkusExtensionTest app = OnQuarkus.of(SomeContract.APPLICATION);}.
 */
final class OnQuarkus {

    private OnQuarkus() {}

    /** The application, locking on the test Redis unless its configuration names another address. */
    static QuarkusExtensionTest of(ApplicationUnderTest application) {
        QuarkusExtensionTest test =
                build(application).overrideConfigKey(ApplicationUnderTest.REDIS_ADDRESS, TestRedis.uri());
        if (!application.config().containsKey("padlock.redis.address")) {
            test.overrideConfigKey("padlock.redis.address", TestRedis.uri());
        }
        return test;
    }

    /**
     * The application, whose build must fail with one error that says everything {@code refusal} says and counts its
     * problems. Nothing connects: the build fails first.
     */
    static QuarkusExtensionTest refused(Refusal refusal) {
        return build(refusal.application()).assertException(failure -> {
            refusal.check(failure);
            if (refusal.problems() > 0) {
                assertThat(Refusal.text(failure)).contains("Padlock found " + refusal.problems() + " problem(s)");
            }
        });
    }

    private static QuarkusExtensionTest build(ApplicationUnderTest application) {
        QuarkusExtensionTest test = new QuarkusExtensionTest()
                // The runner's static fields are set again in Quarkus's class loader, which must find these too.
                .withApplicationRoot(
                        jar -> jar.addClasses(application.beanClasses()).addClasses(OnQuarkus.class, TestRedis.class))
                // Scenarios look their beans up rather than inject them: ArC must keep them all.
                .overrideConfigKey("quarkus.arc.unremovable-types", "dev.padlock.contract.**")
                // Agroal is on this module's test class path (the transaction tests' datasource): its readiness check
                // would stand beside Padlock's, which the readiness scenario looks up as the one readiness check.
                .overrideConfigKey("quarkus.datasource.health.enabled", "false");
        application.config().forEach(test::overrideConfigKey);
        return test;
    }
}
