package dev.padlock.quarkus.deployment.devmode;

import java.util.List;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One start of the dev-mode application as {@link StartupReport} logged it. */
record ReportedRedis(String address, String runId, long processId, String marker, String version) {

    private static final Pattern LINE = Pattern.compile(
            "padlock-dev-mode (redis://\\S+) run_id=([0-9a-f]{40}) process_id=(\\d+) marker=(\\S+) (version-\\d+)");

    /** The reports among the captured log records, oldest first. */
    static List<ReportedRedis> in(List<LogRecord> records) {
        return records.stream()
                .map(DevModeApplication::line)
                .filter(m -> m.startsWith("padlock-dev-mode "))
                .map(ReportedRedis::parse)
                .toList();
    }

    private static ReportedRedis parse(String message) {
        Matcher m = LINE.matcher(message);
        if (!m.matches()) {
            throw new AssertionError("Unexpected start-up report: " + message);
        }
        return new ReportedRedis(m.group(1), m.group(2), Long.parseLong(m.group(3)), m.group(4), m.group(5));
    }
}
