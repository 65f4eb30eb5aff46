package dev.padlock.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two observers (Micrometer's meters and OpenTelemetry's spans) each hear every event, each gets back what it kept of
 * the acquisition's start, and one that fails does not silence the other.
 */
class CompositeLockEventsTest {

    /** Records what it hears; its start token is its own name, so a token handed to the wrong part shows. */
    private static final class Recording implements LockEvents.Meter {
        final String name;
        final boolean fails;
        final List<String> heard = new ArrayList<>();

        Recording(String name, boolean fails) {
            this.name = name;
            this.fails = fails;
        }

        private void hear(String event) {
            heard.add(event);
            if (fails) {
                throw new IllegalStateException(name + " is broken");
            }
        }

        @Override
        public Object acquiring() {
            hear("acquiring");
            return name;
        }

        @Override
        public void acquired(LockEvents.Outcome outcome, long waitNanos, Object acquiring) {
            hear("acquired " + outcome + " " + acquiring);
        }

        @Override
        public void released(long heldNanos) {
            hear("released");
        }

        @Override
        public void lost(LockLost.Detection detection) {
            hear("lost " + detection);
        }

        @Override
        public void renewed() {
            hear("renewed");
        }

        @Override
        public void renewalFailed() {
            hear("renewalFailed");
        }

        @Override
        public void queued() {
            hear("queued");
        }

        @Override
        public void dequeued() {
            hear("dequeued");
        }
    }

    @Test
    void eachObserverHearsEveryEventWithItsOwnStart() {
        Recording meters = new Recording("meters", false);
        Recording spans = new Recording("spans", false);
        LockEvents.Meter both = CompositeLockEvents.of((name, type) -> meters, (name, type) -> spans)
                .meter("stock", LockType.REENTRANT);

        playOneCall(both);

        List<String> expected = List.of("queued", "dequeued", "acquiring", "renewed", "renewalFailed", "released");
        assertThat(meters.heard).containsAll(expected).contains("acquired ACQUIRED meters", "lost DEADLINE");
        assertThat(spans.heard).containsAll(expected).contains("acquired ACQUIRED spans", "lost DEADLINE");
    }

    @Test
    void aFailingObserverDoesNotSilenceTheOther() {
        Recording broken = new Recording("broken", true);
        Recording spans = new Recording("spans", false);
        LockEvents.Meter both = CompositeLockEvents.of((name, type) -> broken, (name, type) -> spans)
                .meter("stock", LockType.REENTRANT);

        playOneCall(both);

        assertThat(spans.heard)
                .containsExactly(
                        "queued",
                        "dequeued",
                        "acquiring",
                        "acquired ACQUIRED spans",
                        "renewed",
                        "renewalFailed",
                        "lost DEADLINE",
                        "released");
    }

    @Test
    void noneLeavesTheOtherAsItIs() {
        LockEvents spans = (name, type) -> new Recording("spans", false);
        assertThat(CompositeLockEvents.of(LockEvents.NONE, spans)).isSameAs(spans);
        assertThat(CompositeLockEvents.of(spans, LockEvents.NONE)).isSameAs(spans);
    }

    private static void playOneCall(LockEvents.Meter meter) {
        meter.queued();
        meter.dequeued();
        Object start = meter.acquiring();
        meter.acquired(LockEvents.Outcome.ACQUIRED, 1_000, start);
        meter.renewed();
        meter.renewalFailed();
        meter.lost(LockLost.Detection.DEADLINE);
        meter.released(2_000);
    }
}
