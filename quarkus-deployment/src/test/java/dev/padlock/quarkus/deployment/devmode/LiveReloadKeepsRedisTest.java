package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.dev.console.DevConsoleManager;
import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode on a local redis-server from Dev Services: a live reload after a code change runs the new code on the
 * same Redis process, with its data, instead of starting another one.
 *
 * <p>The application has no HTTP endpoint (dev mode with HTTP needs quarkus-devui, which our registry lacks), so
 * the test triggers the scan an HTTP request would: {@link DevConsoleManager} lives in a parent-first jar and holds
 * the dev-mode {@code RuntimeUpdatesProcessor}, whose {@code doScan} compiles the edited source and restarts the
 * application before it returns.
 */
class LiveReloadKeepsRedisTest {

    @RegisterExtension
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class)
                    // the process branch, whether or not a container runtime answers on this machine
                    .addAsResource(
                            new StringAsset("quarkus.padlock.devservices.start=process\n"), "application.properties"))
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"));

    @Test
    void liveReloadRunsTheNewCodeOnTheSameRedis() throws Exception {
        ReportedRedis before = single(ReportedRedis.in(dev.getLogRecords()));
        assertThat(before.version()).isEqualTo("version-1");
        assertThat(before.marker()).isEqualTo("none");
        assertThat(before.address()).startsWith("redis://127.0.0.1:").doesNotEndWith(":6379");
        assertThat(ProcessHandle.of(before.processId()))
                .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        dev.modifySourceFile(StartupReport.class, source -> source.replace("\"version-1\"", "\"version-2\""));
        assertThat(DevConsoleManager.getHotReplacementContext().doScan(true))
                .as("the scan restarted the application")
                .isTrue();

        List<ReportedRedis> reports = ReportedRedis.in(dev.getLogRecords());
        assertThat(reports).hasSize(2);
        ReportedRedis after = reports.get(1);
        assertThat(after.version()).as("code after the reload").isEqualTo("version-2");
        assertThat(after.runId())
                .as("run_id, new each time a redis-server starts")
                .isEqualTo(before.runId());
        assertThat(after.processId()).isEqualTo(before.processId());
        assertThat(after.address()).isEqualTo(before.address());
        assertThat(after.marker())
                .as("what the code before the reload wrote; a restarted, non-persistent Redis would have lost it")
                .isEqualTo("version-1");
        assertThat(messages())
                .filteredOn(m -> m.startsWith("Padlock Dev Services started a local redis-server"))
                .hasSize(1);
        assertThat(messages()).noneMatch(m -> m.startsWith("Padlock Dev Services stopped"));
    }

    private static ReportedRedis single(List<ReportedRedis> reports) {
        assertThat(reports).hasSize(1);
        return reports.get(0);
    }

    private static List<String> messages() {
        return dev.getLogRecords().stream()
                .map(r -> r.getParameters() == null ? r.getMessage() : String.format(r.getMessage(), r.getParameters()))
                .toList();
    }
}
