package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode on a local redis-server from Dev Services: a live reload after a Dev Services setting changed stops
 * that Redis and starts another. This is also the control for {@link LiveReloadKeepsRedisTest}: the same report
 * tells a replaced Redis apart (new {@code run_id}, marker gone), so "same Redis" there is not a foregone result.
 */
class DevServicesChangeReplacesRedisTest {

    @RegisterExtension
    static final QuarkusDevModeTest dev = DevModeApplication.with("quarkus.padlock.devservices.service-name=padlock\n"
            // the process branch, whether or not a container runtime answers here
            + "quarkus.padlock.devservices.start=process\n");

    @Test
    void liveReloadAfterADevServicesChangeRunsOnANewRedis() throws Exception {
        ReportedRedis before = DevModeApplication.firstStart(dev);
        assertThat(before.marker()).isEqualTo("none");

        dev.modifyResourceFile(
                "application.properties", properties -> properties.replace("=padlock", "=padlock-renamed"));
        ReportedRedis after = DevModeApplication.afterReload(dev);
        assertThat(after.runId()).isNotEqualTo(before.runId());
        assertThat(after.processId()).isNotEqualTo(before.processId());
        assertThat(after.marker()).as("a new Redis starts empty").isEqualTo("none");
        assertThat(ProcessHandle.of(before.processId()).filter(ProcessHandle::isAlive))
                .as("the replaced redis-server was stopped")
                .isEmpty();
        List<String> messages = DevModeApplication.lines(dev);
        assertThat(messages)
                .filteredOn(m -> m.startsWith("Padlock Dev Services started a local redis-server"))
                .hasSize(2);
        assertThat(messages)
                .filteredOn(m -> m.startsWith("Padlock Dev Services stopped the redis-server at " + before.address()))
                .hasSize(1);
    }
}
