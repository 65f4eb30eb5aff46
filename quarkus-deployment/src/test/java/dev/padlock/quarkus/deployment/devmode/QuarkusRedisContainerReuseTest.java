package dev.padlock.quarkus.deployment.devmode;

import dev.padlock.testing.ContainerRuntime;
import io.quarkus.test.QuarkusDevModeTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Padlock shares the Quarkus Redis client's Dev Service container: a container labelled as that Dev Service labels
 * it ({@code quarkus-dev-service-redis}, service name {@code redis}) runs, and a dev-mode application whose Padlock
 * Dev Services use the same service name reuses it. (The Quarkus Redis client itself is not in the registry this build
 * reaches at Quarkus 3.37, so the container is started here as it would start it.)
 */
@ExtendWith(ContainerRuntime.class)
class QuarkusRedisContainerReuseTest {

    @RegisterExtension
    @Order(1)
    static final SharedRedisContainer first = new SharedRedisContainer("quarkus-dev-service-redis", "redis");

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest second = SharedRedisContainer.devModeApplication("redis");

    @Test
    void padlockReusesTheQuarkusRedisClientsDevServiceContainer() {
        SharedRedisContainer.reusedBy(second);
    }
}
