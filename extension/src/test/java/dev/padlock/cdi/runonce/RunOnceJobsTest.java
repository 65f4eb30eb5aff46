package dev.padlock.cdi.runonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.RunOnceJobsContract;
import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RunOnceJobsContract} on Weld, and what a skip logs through java.util.logging (System.Logger's default; on
 * Quarkus, {@code ScheduledJobsOnQuarkusTest} checks the same through Quarkus's logging).
 */
class RunOnceJobsTest extends RunOnceJobsContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);

    /** A skip is what the job asked for: logged at DEBUG (for whoever looks), never at WARN. */
    @Test
    void aSkipIsLoggedAtDebugNotWarn() throws InterruptedException {
        String test = "aSkipIsLoggedAtDebugNotWarn-" + System.nanoTime();
        Logger logger = Logger.getLogger("dev.padlock");
        Level level = logger.getLevel();
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        handler.setLevel(Level.ALL);
        logger.addHandler(handler);
        logger.setLevel(Level.ALL);
        try {
            Jobs jobs = app.bean(Jobs.class);
            jobs.report(test);
            later();
            assertThat(jobs.report(test)).isNull();
        } finally {
            logger.removeHandler(handler);
            logger.setLevel(level);
        }
        assertThat(records)
                .filteredOn(r -> r.getLoggerName().startsWith("dev.padlock"))
                .noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .anySatisfy(r -> {
                    assertThat(r.getLevel().intValue()).as("DEBUG").isEqualTo(Level.FINE.intValue());
                    assertThat(MessageFormat.format(r.getMessage(), r.getParameters()))
                            .contains("#report(String)")
                            .contains("padlock:report:" + test)
                            .contains("onFailure = SKIP");
                });
    }
}
