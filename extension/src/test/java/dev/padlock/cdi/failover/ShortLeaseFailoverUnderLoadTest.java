package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.failover.FailoverLoad.Tally;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The load of {@link FailoverLoad} through a Sentinel failover with leases shorter than the outage: with a 3 s
 * watchdog, renewals reach no master for longer than the lease; one call in 40 runs for 1 to 6 s, and the kill comes
 * while one of them has 4.5 s to go, so bodies span the kill holding keys that expire on the promoted replica. Those
 * calls must hear of their loss before another call of the key enters: no unreported overlap, no update lost but by a
 * call that heard of its loss, every call ends. Each loss is printed with when the lost call's body ran.
 */
class ShortLeaseFailoverUnderLoadTest {

    @Test
    void callsWhoseLeaseRunsOutDuringTheFailoverHearOfItBeforeAnotherCallOfTheKeyEnters() throws Exception {
        Tally tally = FailoverLoad.runThroughFailover(
                "ShortLeaseFailoverUnderLoadTest, watchdog 3s, one call in 40 of 1-6 s",
                Map.of("padlock.watchdog-timeout", "3s"),
                40);
        assertThat(tally.lossEvents())
                .as("LockLost events: without any, this run did not test what it is meant to")
                .isPositive();
    }
}
