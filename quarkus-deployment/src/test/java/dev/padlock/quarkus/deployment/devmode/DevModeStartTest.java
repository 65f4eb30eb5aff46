package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import org.jboss.shrinkwrap.api.asset.StringAsset;
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
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class)
                    // the process branch, whether or not a container runtime answers on this machine
                    .addAsResource(
                            new StringAsset("quarkus.padlock.devservices.start=process\n"), "application.properties"))
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"));

    @Test
    void devModeLocksOnTheRedisDevServicesStarted() {
        List<String> messages = dev.getLogRecords().stream()
                .map(r -> r.getParameters() == null ? r.getMessage() : String.format(r.getMessage(), r.getParameters()))
                .toList();
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
