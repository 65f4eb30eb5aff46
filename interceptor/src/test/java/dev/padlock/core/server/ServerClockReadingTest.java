package dev.padlock.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sums by which {@link ServerWatch#clockRead} ({@link ServerClocks}) tells a server clock that jumped from one that drifts, with the
 * readings passed in (no client watched): the Redis tests with a stepped server clock are in ServerClockJumpTest.
 */
class ServerClockReadingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The server's wall clock at monotonic 0, in ms. */
    private static final long EPOCH = 1_795_000_000_000L;

    private final List<Long> jumps = new ArrayList<>();
    private final ServerWatch watch = new ServerWatch(new ServerWatch.Holders() {
        @Override
        public void restarted(ServerWatch.Node node) {}

        @Override
        public void clockJumped(ServerWatch.Node node, long nanos) {
            jumps.add(nanos);
        }

        @Override
        public boolean anyHeld() {
            return true;
        }
    });

    /** A renewal sent at {@code sentMs}, answered 5 ms later, run by a server whose clock is {@code aheadMs} ahead. */
    private long renewal(long sentMs, long aheadMs) {
        long ranAt = sentMs + 2;
        return watch.clockRead("padlock:k", sentMs * MS, (sentMs + 5) * MS, EPOCH + ranAt + aheadMs);
    }

    @Test
    void theFirstAnswerIsOnlyABaseline() {
        assertThat(renewal(0, 60_000)).isZero();
    }

    @Test
    void aClockThatKeepsTimeOrDriftsWithinOnePercentIsNoJump() {
        renewal(0, 0);
        assertThat(renewal(10_000, 0)).isZero();
        assertThat(renewal(20_000, 100)).as("1 % of 10 s").isZero();
    }

    @Test
    void aStepForwardBeyondTheAllowanceIsReturnedAsALowerBound() {
        renewal(0, 0);
        long jumped = renewal(10_000, 60_000);
        assertThat(jumped).isBetween(59_990 * MS, 60_000 * MS);
        assertThat(renewal(20_000, 60_000))
                .as("the new clock is the baseline now")
                .isZero();
    }

    @Test
    void answersThatOverlapInTimeAreNotCompared() {
        renewal(1_000, 0);
        // sent before the previous answer arrived: which ran first is unknown
        assertThat(watch.clockRead("padlock:k", 1_002 * MS, 1_010 * MS, EPOCH + 1_004 + 60_000))
                .isZero();
    }

    @Test
    void aClockSetBackIsNoJumpForward() {
        renewal(0, 0);
        assertThat(renewal(10_000, -60_000)).isZero();
    }
}
