package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.testing.ContainerRuntime;
import io.quarkus.dev.console.DevConsoleManager;
import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import org.jboss.shrinkwrap.api.asset.StringAsset;
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
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class)
                    .addAsResource(
                            new StringAsset("quarkus.padlock.devservices.start=container\n"
                                    + "quarkus.padlock.devservices.shared=false\n"
                                    + "quarkus.padlock.devservices.container-env.PADLOCK_EXAMPLE=one\n"),
                            "application.properties"))
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"));

    @Test
    void liveReloadAfterADevServicesChangeRunsOnANewContainer() throws Exception {
        List<ReportedRedis> first = ReportedRedis.in(dev.getLogRecords());
        assertThat(first).hasSize(1);
        ReportedRedis before = first.get(0);
        String replaced = Containers.publishing(before.address()).getId();
        assertThat(Containers.environment(replaced)).contains("PADLOCK_EXAMPLE=one");

        dev.modifyResourceFile("application.properties", properties -> properties.replace("=one", "=two"));
        assertThat(DevConsoleManager.getHotReplacementContext().doScan(true))
                .as("the scan restarted the application")
                .isTrue();

        List<ReportedRedis> reports = ReportedRedis.in(dev.getLogRecords());
        assertThat(reports).hasSize(2);
        ReportedRedis after = reports.get(1);
        assertThat(after.runId()).isNotEqualTo(before.runId());
        assertThat(after.marker()).as("a new Redis starts empty").isEqualTo("none");
        String replacement = Containers.publishing(after.address()).getId();
        assertThat(replacement).isNotEqualTo(replaced);
        assertThat(Containers.environment(replacement)).contains("PADLOCK_EXAMPLE=two");
        assertThat(Containers.byId(replaced))
                .as("the replaced container was removed")
                .isEmpty();
        assertThat(DevModeLines.of(dev))
                .filteredOn(m -> m.startsWith("Padlock Dev Services started a Redis container"))
                .hasSize(2);
    }
}
