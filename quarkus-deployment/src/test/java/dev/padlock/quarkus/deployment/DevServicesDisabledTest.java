package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dev Services off and no address: the application does not start, and the error says what to set. */
class DevServicesDisabledTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Job.class))
            .overrideConfigKey("quarkus.padlock.devservices.enabled", "false")
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                assertThat(all)
                        .contains("Padlock has no Redis to lock on")
                        .contains("quarkus.padlock.devservices.enabled=false")
                        .contains("padlock.redis.address=redis://host:port");
            });

    @ApplicationScoped
    public static class Job {
        @Locked("never")
        public void run() {}
    }

    @Test
    void doesNotStart() {
        // assertException checks the message
    }
}
