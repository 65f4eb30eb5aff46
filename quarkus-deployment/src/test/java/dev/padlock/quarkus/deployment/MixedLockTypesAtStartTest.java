package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.arc.Unremovable;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A per-lock type set only at run time, after the build checked the types, that mixes types on one key stops the
 * start-up with the same message. (It fails before Padlock connects, so no Redis is needed.)
 */
class MixedLockTypesAtStartTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Stock.class))
            .overrideConfigKey("quarkus.padlock.devservices.enabled", "false")
            .overrideConfigKey("padlock.redis.address", "redis://127.0.0.1:1")
            .overrideRuntimeConfigKey("padlock.locks.\"stock:eu-42\".type", "fair")
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                String bean = Stock.class.getName();
                assertThat(all)
                        .contains("Padlock cannot start, 1 problem(s)")
                        .contains("Invalid @Locked.type on " + bean + "#reserve(String): its keys"
                                + " padlock:stock:<key> can be padlock:stock:eu-42, locked as FAIR"
                                + " (padlock.locks.\"stock:eu-42\".type) by " + bean + "#reserveEu42(), and as"
                                + " REENTRANT here.");
            });

    /** Kept although nothing injects it: start-up only re-checks the beans ArC keeps. */
    @ApplicationScoped
    @Unremovable
    public static class Stock {
        @Locked(value = "stock", key = "{sku}")
        public void reserve(String sku) {}

        @Locked("stock:eu-42")
        public void reserveEu42() {}
    }

    @Test
    void doesNotStart() {
        // assertException checks the message
    }
}
