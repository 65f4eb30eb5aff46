package dev.padlock.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An observer's bug, an {@code Error} included, stays with the observer: the release loop that reports a loss must
 * go on to release the call's other locks, and the event thread must go on delivering.
 */
class LockLossReporterTest {

    private static final LockLost LOSS =
            new LockLost("padlock:k", "Bean#m()", Duration.ofMillis(5), LockLost.Detection.RELEASE, null);

    @Test
    void anObserversErrorDoesNotReachTheReporter() throws Exception {
        LockLossReporter reporter = new LockLossReporter(loss -> {
            throw new AssertionError("an observer's bug");
        });

        reporter.reportNow(LOSS);
        reporter.reportLater(LOSS).get(10, TimeUnit.SECONDS);

        assertThat(reporter.getLocksLost()).isEqualTo(2);
    }
}
