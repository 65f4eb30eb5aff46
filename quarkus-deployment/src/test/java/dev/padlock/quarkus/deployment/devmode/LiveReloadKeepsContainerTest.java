package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.testing.ContainerRuntime;
import io.quarkus.test.QuarkusDevModeTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode on a Redis container from Dev Services ({@code quarkus.padlock.devservices.start=container}, shared as by
 * default): a live reload after a code change runs the new code on the same container, with its data. The control,
 * a changed setting that replaces it: {@link DevServicesChangeReplacesContainerTest}.
 */
@ExtendWith(ContainerRuntime.class)
class LiveReloadKeepsContainerTest {

    @RegisterExtension
    static final QuarkusDevModeTest dev = DevModeApplication.with("quarkus.padlock.devservices.start=container\n"
            + "quarkus.padlock.devservices.service-name=padlock-live-reload\n");

    @Test
    void liveReloadRunsTheNewCodeOnTheSameContainer() throws Exception {
        ReportedRedis before = DevModeApplication.firstStart(dev);
        assertThat(before.marker()).isEqualTo("none");
        String container = Containers.publishing(before.address()).getId();
        assertThat(Containers.labels(container)).containsEntry("quarkus-dev-service-padlock", "padlock-live-reload");

        dev.modifySourceFile(StartupReport.class, source -> source.replace("\"version-1\"", "\"version-2\""));
        ReportedRedis after = DevModeApplication.afterReload(dev);
        assertThat(after.version()).as("code after the reload").isEqualTo("version-2");
        assertThat(after.runId()).as("run_id, new each time a Redis starts").isEqualTo(before.runId());
        assertThat(after.address()).isEqualTo(before.address());
        assertThat(after.marker()).as("what the code before the reload wrote").isEqualTo("version-1");
        assertThat(Containers.publishing(after.address()).getId()).isEqualTo(container);
        assertThat(DevModeApplication.lines(dev))
                .filteredOn(m -> m.startsWith("Padlock Dev Services started a Redis container"))
                .hasSize(1);
    }
}
