package dev.padlock.quarkus.deployment.devmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.dev.console.DevConsoleManager;
import io.quarkus.test.QuarkusDevModeTest;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.logging.LogRecord;
import org.jboss.shrinkwrap.api.asset.StringAsset;

/**
 * The dev-mode application these tests run ({@link StartupReport} and {@link LockedJob}), what it logged, and the live
 * reload a request would trigger.
 *
 * <p>The application has no HTTP endpoint (dev mode with HTTP needs quarkus-devui, which our registry lacks), so
 * {@link #afterReload} runs the scan a request would: {@link DevConsoleManager} lives in a parent-first jar and holds
 * the dev-mode {@code RuntimeUpdatesProcessor}, whose {@code doScan} compiles what was edited and restarts the
 * application before it returns.
 */
final class DevModeApplication {

    private DevModeApplication() {}

    /** The application with these {@code application.properties} lines; Padlock's log lines are captured. */
    static QuarkusDevModeTest with(String properties) {
        return new QuarkusDevModeTest()
                .withApplicationRoot(jar -> jar.addClasses(StartupReport.class, LockedJob.class)
                        .addAsResource(new StringAsset(properties), "application.properties"))
                .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"));
    }

    /** Every captured log line, formatted. */
    static List<String> lines(QuarkusDevModeTest dev) {
        return dev.getLogRecords().stream().map(DevModeApplication::line).toList();
    }

    /** One log record's text, its parameters filled in (a record that is not printf-style stays as it is). */
    static String line(LogRecord record) {
        if (record.getParameters() == null) {
            return record.getMessage();
        }
        try {
            return String.format(record.getMessage(), record.getParameters());
        } catch (IllegalFormatException e) {
            return record.getMessage();
        }
    }

    /** The application's only start so far, as {@link StartupReport} logged it. */
    static ReportedRedis firstStart(QuarkusDevModeTest dev) {
        List<ReportedRedis> reports = ReportedRedis.in(dev.getLogRecords());
        assertThat(reports).hasSize(1);
        return reports.get(0);
    }

    /** Runs the scan that restarts the application after an edit, and returns the second start's report. */
    static ReportedRedis afterReload(QuarkusDevModeTest dev) throws Exception {
        assertThat(DevConsoleManager.getHotReplacementContext().doScan(true))
                .as("the scan restarted the application")
                .isTrue();
        List<ReportedRedis> reports = ReportedRedis.in(dev.getLogRecords());
        assertThat(reports).hasSize(2);
        return reports.get(1);
    }
}
