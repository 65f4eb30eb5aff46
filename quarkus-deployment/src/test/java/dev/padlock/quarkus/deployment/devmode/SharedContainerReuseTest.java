package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.testing.ContainerRuntime;
import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two dev-mode applications share one Redis container: a container labelled {@code quarkus-dev-service-padlock} with
 * the service name runs (as the first application's Dev Services left it, labelled so to share it), and this dev-mode
 * application reuses it instead of starting its own.
 */
@ExtendWith(ContainerRuntime.class)
class SharedContainerReuseTest {

    @RegisterExtension
    @Order(1)
    static final SharedRedisContainer first = new SharedRedisContainer("quarkus-dev-service-padlock", "padlock-shared");

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest second = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class)
                    .addAsResource(
                            new StringAsset("quarkus.padlock.devservices.start=container\n"
                                    + "quarkus.padlock.devservices.service-name=padlock-shared\n"),
                            "application.properties"))
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"));

    @Test
    void aSecondDevModeApplicationReusesTheSharedContainer() {
        List<ReportedRedis> reports = ReportedRedis.in(second.getLogRecords());
        assertThat(reports).hasSize(1);
        String shared = System.getProperty("padlock.test.shared-container");
        assertThat(Containers.publishing(reports.get(0).address()).getId())
                .as("the container this application locked on")
                .isEqualTo(shared);
        assertThat(DevModeLines.of(second))
                .noneMatch(m -> m.startsWith("Padlock Dev Services started"))
                .anyMatch(m -> m.startsWith("Padlock Dev Services reuse the shared Redis container " + shared));
    }
}
