package dev.padlock.quarkus.deployment;

import dev.padlock.contract.ApplicationClientContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ApplicationClientContract} on Quarkus, where Padlock's client is only a default bean. The start-up line is
 * checked in the log records Quarkus collects.
 */
class ApplicationClientOnQuarkusTest extends ApplicationClientContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION)
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"))
            .assertLogRecords(records -> checkStartUpLines(records.stream()
                    .map(r -> r.getLevel() + " " + r.getMessage())
                    .toList()));
}
