package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode with no address, Dev Services pinned to a process ({@code quarkus.padlock.devservices.start=process}):
 * they start a local redis-server and the application takes a real lock on it at start-up.
 *
 * <p>What happens to that Redis on a live reload: {@link LiveReloadKeepsRedisTest} and
 * {@link DevServicesChangeReplacesRedisTest}.
 */
class DevModeStartTest {

    @RegisterExtension
    // the process branch, whether or not a container runtime answers on this machine
    static final QuarkusDevModeTest dev = DevModeApplication.with("quarkus.padlock.devservices.start=process\n");

    @Test
    void devModeLocksOnTheRedisDevServicesStarted() {
        List<String> messages = DevModeApplication.lines(dev);
        assertThat(messages)
                .filteredOn(m -> m.startsWith("padlock-dev-mode"))
                .singleElement()
                .asString()
                .startsWith("padlock-dev-mode redis://127.0.0.1:")
                .doesNotContain(":6379 ")
                .endsWith(" version-1");
        assertThat(messages)
                .filteredOn(m -> m.contains("Dev Services started a local redis-server"))
                .hasSize(1);
    }
}
