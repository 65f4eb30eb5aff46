package dev.padlock.redisserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * Whether a container runtime could answer here, judged without asking one: the places Docker, Podman and
 * Testcontainers are configured or listen. Asking Testcontainers costs a second or more and, when nothing answers,
 * logs an ERROR ("Could not find a valid Docker environment"); Dev Services and the test harness ask it only when
 * this finds a hint, and otherwise take a {@code redis-server} process quietly. A hint is not an answer: the runtime
 * may still be down, and then Testcontainers is asked and says so.
 */
public final class ContainerRuntimeHint {

    private ContainerRuntimeHint() {}

    /** Where a container runtime may answer on this machine, or empty when nothing hints at one. */
    public static Optional<String> find() {
        return find(System::getenv, Path.of(System.getProperty("user.home", "/")), System.getProperty("os.name", ""));
    }

    /**
     * @param environment environment variables by name ({@code null} when unset)
     * @param home the user's home directory
     * @param osName {@code os.name}
     */
    static Optional<String> find(Function<String, String> environment, Path home, String osName) {
        String dockerHost = environment.apply("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            return Optional.of("DOCKER_HOST=" + dockerHost.trim());
        }
        if (osName.toLowerCase(Locale.ROOT).startsWith("windows")) {
            return Optional.of("Windows (Docker Desktop's named pipe)");
        }
        Path properties = home.resolve(".testcontainers.properties");
        if (dockerHostIn(properties)) {
            return Optional.of("docker.host in " + properties);
        }
        for (Path socket : sockets(environment, home)) {
            if (Files.exists(socket)) {
                return Optional.of(socket.toString());
            }
        }
        return Optional.empty();
    }

    /** The sockets Docker Engine, Docker Desktop, rootless Docker, Podman, Colima and Rancher Desktop listen on. */
    private static List<Path> sockets(Function<String, String> environment, Path home) {
        List<Path> sockets = new ArrayList<>(List.of(
                Path.of("/var/run/docker.sock"),
                Path.of("/run/docker.sock"),
                Path.of("/run/podman/podman.sock"),
                home.resolve(".docker/run/docker.sock"),
                home.resolve(".docker/desktop/docker.sock"),
                home.resolve(".colima/default/docker.sock"),
                home.resolve(".colima/docker.sock"),
                home.resolve(".rd/docker.sock")));
        String runtimeDir = environment.apply("XDG_RUNTIME_DIR");
        if (runtimeDir != null && !runtimeDir.isBlank()) {
            sockets.add(Path.of(runtimeDir, "docker.sock"));
            sockets.add(Path.of(runtimeDir, "podman", "podman.sock"));
        }
        return sockets;
    }

    private static boolean dockerHostIn(Path properties) {
        if (!Files.isRegularFile(properties)) {
            return false;
        }
        Properties read = new Properties();
        try (InputStream in = Files.newInputStream(properties)) {
            read.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return true; // unreadable: let Testcontainers judge it
        }
        String host = read.getProperty("docker.host");
        return host != null && !host.isBlank();
    }
}
