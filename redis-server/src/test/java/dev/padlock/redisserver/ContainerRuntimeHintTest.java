package dev.padlock.redisserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What hints at a container runtime, each judged on a home directory and an environment of the test's making. */
class ContainerRuntimeHintTest {

    @TempDir
    Path home;

    private Map<String, String> environment = Map.of();

    private java.util.Optional<String> find(String osName) {
        return ContainerRuntimeHint.find(environment::get, home, osName);
    }

    /** Only meaningful where the machine-wide sockets are absent, as on a machine without Docker. */
    private static boolean noMachineSocket() {
        return !Files.exists(Path.of("/var/run/docker.sock"))
                && !Files.exists(Path.of("/run/docker.sock"))
                && !Files.exists(Path.of("/run/podman/podman.sock"));
    }

    @Test
    void nothingHintsAtARuntimeOnABareLinuxMachine() {
        if (noMachineSocket()) {
            assertThat(find("Linux")).isEmpty();
        }
    }

    @Test
    void dockerHostIsAHint() {
        environment = Map.of("DOCKER_HOST", "unix:///tmp/padlock-docker/docker.sock");
        assertThat(find("Linux")).contains("DOCKER_HOST=unix:///tmp/padlock-docker/docker.sock");
    }

    @Test
    void aTestcontainersDockerHostIsAHint() throws IOException {
        Files.writeString(home.resolve(".testcontainers.properties"), "docker.host=tcp://127.0.0.1:2375\n");
        assertThat(find("Linux")).hasValueSatisfying(hint -> assertThat(hint).startsWith("docker.host in "));
    }

    @Test
    void aTestcontainersFileWithoutDockerHostIsNot() throws IOException {
        Files.writeString(home.resolve(".testcontainers.properties"), "ryuk.disabled=true\n");
        if (noMachineSocket()) {
            assertThat(find("Linux")).isEmpty();
        }
    }

    @Test
    void dockerDesktopsSocketInTheHomeDirectoryIsAHint() throws IOException {
        Files.createDirectories(home.resolve(".docker/run"));
        Files.createFile(home.resolve(".docker/run/docker.sock"));
        assertThat(find("Mac OS X"))
                .contains(home.resolve(".docker/run/docker.sock").toString());
    }

    @Test
    void rootlessDockerAndPodmanSocketsAreHints() throws IOException {
        Path runtime = Files.createDirectories(home.resolve("run-user"));
        environment = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        Files.createDirectories(runtime.resolve("podman"));
        Files.createFile(runtime.resolve("podman/podman.sock"));
        if (noMachineSocket()) {
            assertThat(find("Linux"))
                    .contains(runtime.resolve("podman/podman.sock").toString());
        }
    }

    @Test
    void windowsIsAlwaysWorthAsking() {
        assertThat(find("Windows 11")).isPresent();
    }
}
