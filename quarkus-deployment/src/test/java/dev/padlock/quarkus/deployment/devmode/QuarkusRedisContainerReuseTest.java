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
 * Padlock shares the Quarkus Redis client's Dev Service container: a container labelled as that Dev Service labels
 * it ({@code quarkus-dev-service-redis}, service name {@code redis}) runs, and a dev-mode application whose Padlock
 * Dev Services use the same service name reuses it. (The Quarkus Redis client itself is not in the registry this build
 * reaches at Quarkus 3.37, so the container is started here as it would start it.)
 */
@ExtendWith(ContainerRuntime.class)
class QuarkusRedisContainerReuseTest {

    @RegisterExtension
    @Order(1)
    static final SharedRedisContainer first = new SharedRedisContainer("quarkus-dev-service-redis", "redis");

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest second = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class)
                    .addAsResource(
                            new StringAsset("quarkus.padlock.devservices.start=container\n"
                                    + "quarkus.padlock.devservices.service-name=redis\n"),
                            "application.properties"))
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"));

    @Test
    void padlockReusesTheQuarkusRedisClientsDevServiceContainer() {
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
