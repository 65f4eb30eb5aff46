package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.redisserver.Ports;
import dev.padlock.testing.ContainerRuntime;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * A test application with Dev Services on the container branch ({@code quarkus.padlock.devservices.start=container}),
 * a fixed host port and an environment variable for the container: Padlock locks on that container, and the container
 * is stopped and removed when the application stops.
 */
@ExtendWith(ContainerRuntime.class)
class DevServicesContainerTest {

    /** One free port for both loads of this class (JUnit's and the application's class loader). */
    static final int PORT = fixedPort();

    private static int fixedPort() {
        String chosen = System.getProperty("padlock.test.fixed-port");
        if (chosen == null) {
            chosen = String.valueOf(Ports.free(false));
            System.setProperty("padlock.test.fixed-port", chosen);
        }
        return Integer.parseInt(chosen);
    }

    /** Runs after the application stopped (registered before it): the container it used must be gone. */
    @RegisterExtension
    @Order(1)
    static final AfterAllCallback containerRemoved = context -> {
        String id = System.clearProperty("padlock.test.devservices-container");
        assertThat(id).as("the test recorded the container").isNotNull();
        assertThat(Containers.byId(id))
                .as("the container after the application stopped")
                .isEmpty();
    };

    @RegisterExtension
    @Order(2)
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Job.class, Containers.class))
            .overrideConfigKey("quarkus.padlock.devservices.start", "container")
            .overrideConfigKey("quarkus.padlock.devservices.port", String.valueOf(PORT))
            .overrideConfigKey("quarkus.padlock.devservices.container-env.PADLOCK_EXAMPLE", "set")
            .overrideConfigKey("quarkus.datasource.health.enabled", "false");

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("in-a-dev-services-container")
        public boolean heldWhileRunning() {
            return redisson.getLock("padlock:in-a-dev-services-container").isLocked();
        }
    }

    @Inject
    Job job;

    @ConfigProperty(name = "padlock.redis.address")
    String address;

    @Test
    void locksOnTheContainerDevServicesStartedOnTheFixedPortWithItsEnvironment() {
        assertThat(address).startsWith("redis://").endsWith(":" + PORT);
        assertThat(job.heldWhileRunning()).isTrue();
        String id = Containers.publishing(address).getId();
        assertThat(Containers.environment(id)).contains("PADLOCK_EXAMPLE=set");
        assertThat(Containers.labels(id))
                .as("a test application's container is not shared")
                .doesNotContainKey("quarkus-dev-service-padlock");
        System.setProperty("padlock.test.devservices-container", id);
    }
}
