package dev.padlock.quarkus.deployment.devmode;

import io.quarkus.test.QuarkusDevModeTest;
import java.util.List;

/** The captured log lines of a dev-mode test, formatted. */
final class DevModeLines {

    private DevModeLines() {}

    static List<String> of(QuarkusDevModeTest dev) {
        return dev.getLogRecords().stream()
                .map(r -> r.getParameters() == null ? r.getMessage() : String.format(r.getMessage(), r.getParameters()))
                .toList();
    }
}
