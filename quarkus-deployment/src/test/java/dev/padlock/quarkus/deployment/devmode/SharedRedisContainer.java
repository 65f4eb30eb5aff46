package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusDevModeTest;
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

    /** A dev-mode application whose Dev Services share containers under {@code serviceName} (on the container branch). */
    static QuarkusDevModeTest devModeApplication(String serviceName) {
        return DevModeApplication.with("quarkus.padlock.devservices.start=container\n"
                + "quarkus.padlock.devservices.service-name=" + serviceName + "\n");
    }

    /** {@code application} locked on this container, and said it reused it instead of starting one. */
    static void reusedBy(QuarkusDevModeTest application) {
        ReportedRedis report = DevModeApplication.firstStart(application);
        String shared = System.getProperty("padlock.test.shared-container");
        assertThat(Containers.publishing(report.address()).getId())
                .as("the container the application locked on")
                .isEqualTo(shared);
        assertThat(DevModeApplication.lines(application))
                .noneMatch(m -> m.startsWith("Padlock Dev Services started"))
                .anyMatch(m -> m.startsWith("Padlock Dev Services reuse the shared Redis container " + shared));
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
