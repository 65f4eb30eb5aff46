package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.ApplicationClientContract;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ApplicationClientContract} on Weld, where Padlock logs through java.util.logging. */
class ApplicationClientTest extends ApplicationClientContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION);

    @Test
    void saysAtStartUpWhichOfItsKeysTheApplicationsClientMakesMoot() {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger padlock = Logger.getLogger("dev.padlock");
        padlock.addHandler(capture);
        try {
            // deploys the application now, while its start-up is captured
            assertThat(app.bean(Job.class).heldWhileRunning()).isEqualTo(1L);
        } finally {
            padlock.removeHandler(capture);
        }
        checkStartUpLines(lines);
    }
}
