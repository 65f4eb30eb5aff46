package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A padlock.interceptor-priority that is not a number fails the build, naming the key and a value to use. */
class InterceptorPriorityBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Service.class))
            .overrideConfigKey("padlock.interceptor-priority", "early")
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                assertThat(all)
                        .contains("Invalid padlock.interceptor-priority: 'early' is not a whole number. Use e.g. 100"
                                + " (the default, outside @Transactional at 200).");
            });

    @ApplicationScoped
    public static class Service {
        @Locked("work")
        public void work() {}
    }

    @Test
    void theBuildFails() {
        // assertException above checks the message; reaching here means the build failed as expected
    }
}
