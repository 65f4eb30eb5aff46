package dev.padlock.quarkus.deployment;

import io.quarkus.deployment.builditem.Startable;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** Dev Services with a container runtime: a Redis container, labelled so other dev-mode apps can share it. */
final class RedisContainerService implements Startable {

    static final String LABEL = "quarkus-dev-service-padlock";
    static final int REDIS_PORT = 6379;

    private static final Logger LOG = Logger.getLogger(RedisContainerService.class);

    /**
     * The containers this JVM's Dev Services started and have not stopped. Labelled to be shared, one of them is found
     * by the next build's search for a shared container (a live reload): it is this application's own, which Quarkus
     * keeps running for it while its settings stay equal, not another application's to reuse.
     */
    private static final Set<String> RUNNING_HERE = ConcurrentHashMap.newKeySet();

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

    /** Whether this JVM's Dev Services started the container {@code id} and have not stopped it. */
    static boolean runsHere(String id) {
        return RUNNING_HERE.contains(id);
    }

    @Override
    public void start() {
        container.start();
        RUNNING_HERE.add(container.getContainerId());
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
        RUNNING_HERE.remove(container.getContainerId());
        container.stop();
    }
}
