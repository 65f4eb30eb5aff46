package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A normal dev-mode start, Dev Services left to choose ({@code quarkus.padlock.devservices.start=auto}): no ERROR from
 * anyone, and one INFO line saying which Redis Padlock's Dev Services started and why. Without a container runtime
 * (no {@code DOCKER_HOST}, no Docker or Podman socket) they do not ask Testcontainers, whose probe would log "Could not
 * find a valid Docker environment" at ERROR, and take a redis-server; with one (as in CI) they start a container. The
 * test holds on both machines, and proves the quiet path on the first.
 */
class DevModeQuietStartTest {

    @RegisterExtension
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class))
            .setLogRecordPredicate(r ->
                    r.getLoggerName().startsWith("dev.padlock") || r.getLevel().intValue() >= Level.SEVERE.intValue());

    @Test
    void aDevModeStartLogsNoErrorAndOneLineSayingWhichRedisAndWhy() {
        List<LogRecord> records = dev.getLogRecords();
        assertThat(records.stream()
                        .filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue())
                        .map(r -> r.getLoggerName() + ": " + DevModeApplication.line(r)))
                .as("ERROR lines of any logger during the start")
                .isEmpty();
        assertThat(records.stream().map(DevModeApplication::line))
                .filteredOn(m -> m.startsWith("Padlock Dev Services started"))
                .singleElement()
                .asString()
                .satisfiesAnyOf(
                        line -> assertThat(line)
                                .startsWith("Padlock Dev Services started a local redis-server process at redis://")
                                .contains(": no container runtime was found (no DOCKER_HOST, no Docker or Podman"),
                        line -> assertThat(line)
                                .startsWith("Padlock Dev Services started a Redis container (redis:7) at redis://")
                                .contains(": a container runtime answers ("),
                        line -> assertThat(line)
                                .startsWith("Padlock Dev Services started a local redis-server process at redis://")
                                .contains(": no container runtime answers ("));
    }
}
