package dev.padlock.quarkus.deployment.devmode;

import com.github.dockerjava.api.model.Container;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/** What the container tests ask the container runtime: which containers run, by id or by published port. */
final class Containers {

    private Containers() {}

    static List<Container> all() {
        return DockerClientFactory.instance()
                .client()
                .listContainersCmd()
                .withShowAll(true)
                .exec();
    }

    /** The container that publishes the port of {@code address} ({@code redis://host:port}) on the host. */
    static Container publishing(String address) {
        int port = URI.create(address).getPort();
        return all().stream()
                .filter(c -> Arrays.stream(c.getPorts())
                        .anyMatch(p -> Integer.valueOf(port).equals(p.getPublicPort())))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container publishes the port of " + address));
    }

    static Optional<Container> byId(String id) {
        return all().stream().filter(c -> c.getId().equals(id)).findFirst();
    }

    /** The environment the container was created with, {@code NAME=value}. */
    static List<String> environment(String id) {
        String[] env = DockerClientFactory.instance()
                .client()
                .inspectContainerCmd(id)
                .exec()
                .getConfig()
                .getEnv();
        return env == null ? List.of() : List.of(env);
    }

    static Map<String, String> labels(String id) {
        Map<String, String> labels = DockerClientFactory.instance()
                .client()
                .inspectContainerCmd(id)
                .exec()
                .getConfig()
                .getLabels();
        return labels == null ? Map.of() : labels;
    }
}
