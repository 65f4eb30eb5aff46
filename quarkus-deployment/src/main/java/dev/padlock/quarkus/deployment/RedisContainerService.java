package dev.padlock.quarkus.deployment;

import io.quarkus.deployment.builditem.Startable;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jboss.logging.Logger;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** Dev Services with a container runtime: a Redis container, labelled so other dev-mode apps can share it. */
final class RedisContainerService implements Startable {

    static final String LABEL = "quarkus-dev-service-padlock";
    static final int REDIS_PORT = 6379;

    private static final Logger LOG = Logger.getLogger(RedisContainerService.class);

    private final GenericContainer<?> container;
    private final String why;

    /** @param why why a container, for the INFO line that says which Redis */
    RedisContainerService(
            String image, OptionalInt port, boolean shared, String serviceName, Map<String, String> env, String why) {
        this.why = why;
        container = new GenericContainer<>(DockerImageName.parse(image).asCompatibleSubstituteFor("redis"))
                .withExposedPorts(REDIS_PORT)
                .withEnv(env);
        if (shared) {
            container.withLabel(LABEL, serviceName);
        }
        port.ifPresent(p -> container.setPortBindings(List.of(p + ":" + REDIS_PORT)));
    }

    @Override
    public void start() {
        container.start();
        LOG.infof(
                "Padlock Dev Services started a Redis container (%s) at %s: %s",
                container.getDockerImageName(), getConnectionInfo(), why);
    }

    @Override
    public String getConnectionInfo() {
        return "redis://" + container.getHost() + ":" + container.getMappedPort(REDIS_PORT);
    }

    @Override
    public String getContainerId() {
        return container.getContainerId();
    }

    @Override
    public void close() {
        container.stop();
    }
}
