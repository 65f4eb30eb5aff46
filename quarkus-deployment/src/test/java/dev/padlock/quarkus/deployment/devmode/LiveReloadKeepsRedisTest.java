package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusDevModeTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode on a local redis-server from Dev Services: a live reload after a code change runs the new code on the
 * same Redis process, with its data, instead of starting another one (how the test reloads: {@link
 * DevModeApplication#afterReload}).
 */
class LiveReloadKeepsRedisTest {

    @RegisterExtension
    // the process branch, whether or not a container runtime answers on this machine
    static final QuarkusDevModeTest dev = DevModeApplication.with("quarkus.padlock.devservices.start=process\n");

    @Test
    void liveReloadRunsTheNewCodeOnTheSameRedis() throws Exception {
        ReportedRedis before = DevModeApplication.firstStart(dev);
        assertThat(before.version()).isEqualTo("version-1");
        assertThat(before.marker()).isEqualTo("none");
        assertThat(before.address()).startsWith("redis://127.0.0.1:").doesNotEndWith(":6379");
        assertThat(ProcessHandle.of(before.processId()))
                .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        dev.modifySourceFile(StartupReport.class, source -> source.replace("\"version-1\"", "\"version-2\""));
        ReportedRedis after = DevModeApplication.afterReload(dev);
        assertThat(after.version()).as("code after the reload").isEqualTo("version-2");
        assertThat(after.runId())
                .as("run_id, new each time a redis-server starts")
                .isEqualTo(before.runId());
        assertThat(after.processId()).isEqualTo(before.processId());
        assertThat(after.address()).isEqualTo(before.address());
        assertThat(after.marker())
                .as("what the code before the reload wrote; a restarted, non-persistent Redis would have lost it")
                .isEqualTo("version-1");
        assertThat(DevModeApplication.lines(dev))
                .filteredOn(m -> m.startsWith("Padlock Dev Services started a local redis-server"))
                .hasSize(1);
        assertThat(DevModeApplication.lines(dev)).noneMatch(m -> m.startsWith("Padlock Dev Services stopped"));
    }
}
