package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.testing.ContainerRuntime;
import io.quarkus.test.QuarkusDevModeTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode on a Redis container from Dev Services: a live reload after a Dev Services setting changed (an environment
 * variable of the container) stops and removes that container and starts another, with the new setting.
 */
@ExtendWith(ContainerRuntime.class)
class DevServicesChangeReplacesContainerTest {

    @RegisterExtension
    static final QuarkusDevModeTest dev = DevModeApplication.with("quarkus.padlock.devservices.start=container\n"
            + "quarkus.padlock.devservices.shared=false\n"
            + "quarkus.padlock.devservices.container-env.PADLOCK_EXAMPLE=one\n");

    @Test
    void liveReloadAfterADevServicesChangeRunsOnANewContainer() throws Exception {
        ReportedRedis before = DevModeApplication.firstStart(dev);
        String replaced = Containers.publishing(before.address()).getId();
        assertThat(Containers.environment(replaced)).contains("PADLOCK_EXAMPLE=one");

        dev.modifyResourceFile("application.properties", properties -> properties.replace("=one", "=two"));
        ReportedRedis after = DevModeApplication.afterReload(dev);
        assertThat(after.runId()).isNotEqualTo(before.runId());
        assertThat(after.marker()).as("a new Redis starts empty").isEqualTo("none");
        String replacement = Containers.publishing(after.address()).getId();
        assertThat(replacement).isNotEqualTo(replaced);
        assertThat(Containers.environment(replacement)).contains("PADLOCK_EXAMPLE=two");
        assertThat(Containers.byId(replaced))
                .as("the replaced container was removed")
                .isEmpty();
        assertThat(DevModeApplication.lines(dev))
                .filteredOn(m -> m.startsWith("Padlock Dev Services started a Redis container"))
                .hasSize(2);
    }
}
