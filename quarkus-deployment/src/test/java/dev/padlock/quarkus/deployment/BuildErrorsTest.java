package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

/**
 * Every problem of every @Locked method in one build error, worded as on the portable extension. (@Locked on a
 * private method never gets here: ArC fails the build first, with its own message.)
 */
class BuildErrorsTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Broken.class, BadInjections.class))
            .overrideConfigKey("padlock.locks.\"configured\".lease-time", "a while")
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                String bean = Broken.class.getName();
                assertThat(all)
                        .contains("Padlock found 5 problem(s)")
                        .contains("Invalid @Locked.key on " + bean + "#unknownParameter(String): {skus} names no"
                                + " parameter of the method. Use one of sku, or a position such as {0}.")
                        .contains("Invalid @Locked.waitTime on " + bean + "#badWait(): 'soon' is not a duration")
                        .contains("Invalid @Locked.onFailure on " + bean + "#skipPrimitive(): SKIP has nothing to"
                                + " return")
                        .contains("Invalid padlock.locks.\"configured\".lease-time (lock of " + bean + "#badConfig())")
                        .contains("Invalid @Named(\"shared\") lock injection points: RLock at field "
                                + BadInjections.class.getName() + ".asLock and RReadWriteLock");
            });

    @ApplicationScoped
    public static class Broken {
        @Locked(key = "{skus}")
        public void unknownParameter(String sku) {}

        @Locked(waitTime = "soon")
        public void badWait() {}

        @Locked(onFailure = OnFailure.SKIP)
        public int skipPrimitive() {
            return 1;
        }

        @Locked("configured")
        public void badConfig() {}
    }

    @ApplicationScoped
    public static class BadInjections {
        @Inject
        @Named("shared")
        RLock asLock;

        @Inject
        @Named("shared")
        RReadWriteLock asReadWrite;
    }

    @Test
    void theBuildFails() {
        // assertException above checks the message; reaching here means the build failed as expected
    }
}
