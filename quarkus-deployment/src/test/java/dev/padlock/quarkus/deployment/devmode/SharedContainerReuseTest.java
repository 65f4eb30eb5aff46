package dev.padlock.quarkus.deployment.devmode;

import dev.padlock.testing.ContainerRuntime;
import io.quarkus.test.QuarkusDevModeTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two dev-mode applications share one Redis container: a container labelled {@code quarkus-dev-service-padlock} with
 * the service name runs (as the first application's Dev Services left it, labelled so to share it), and this dev-mode
 * application reuses it instead of starting its own.
 */
@ExtendWith(ContainerRuntime.class)
class SharedContainerReuseTest {

    @RegisterExtension
    @Order(1)
    static final SharedRedisContainer first = new SharedRedisContainer("quarkus-dev-service-padlock", "padlock-shared");

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest second = SharedRedisContainer.devModeApplication("padlock-shared");

    @Test
    void aSecondDevModeApplicationReusesTheSharedContainer() {
        SharedRedisContainer.reusedBy(second);
    }
}
