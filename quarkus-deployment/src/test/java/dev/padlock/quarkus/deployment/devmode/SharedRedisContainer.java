package dev.padlock.quarkus.deployment.devmode;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@code redis:7} container labelled as a dev-mode application's shared Dev Service labels it, started before the
 * application under test and removed after it: register it with a lower {@code @Order} than the application.
 */
final class SharedRedisContainer implements BeforeAllCallback, AfterAllCallback {

    private final GenericContainer<?> container;

    SharedRedisContainer(String label, String serviceName) {
        container = new GenericContainer<>(DockerImageName.parse("redis:7"))
                .withExposedPorts(6379)
                .withLabel(label, serviceName);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        container.start();
        // read by the test, which runs in the application's class loader
        System.setProperty("padlock.test.shared-container", container.getContainerId());
        System.setProperty(
                "padlock.test.shared-address", "redis://" + container.getHost() + ":" + container.getMappedPort(6379));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty("padlock.test.shared-container");
        System.clearProperty("padlock.test.shared-address");
        container.stop();
    }
}
