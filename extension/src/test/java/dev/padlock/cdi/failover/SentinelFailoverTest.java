package dev.padlock.cdi.failover;

import static dev.padlock.cdi.failover.SentinelHolding.KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.cdi.failover.SentinelHolding.Outcome;
import org.junit.jupiter.api.Test;

/**
 * A lock held across a Sentinel failover (see {@link SentinelHolding}): application A holds a key while its master is
 * SIGKILLed and the sentinels promote the healthy replica; application B keeps trying to take the same key. The rule
 * (DESIGN.md, guarantee 5): A either keeps its lock until its body returns (renewals reach the new master; B enters
 * only after that), or A hears of its loss ({@link LockLost}) before B enters, never after.
 */
class SentinelFailoverTest {

    @Test
    void aWatchdogHolderKeepsItsLockAcrossThePromotionOrHearsOfItsLossFirst() throws Exception {
        // Renewals every 2 s: one or two fail while the master is down, and the first after the promotion reaches the
        // replica, which holds the key with the expiry of the last renewal before the kill.
        Outcome outcome = SentinelHolding.run(
                "SentinelFailoverTest watchdog 6s",
                "6s",
                3000,
                (work, started, release) -> work.holdWithWatchdog(KEY, started, release));
        assertThat(outcome.late())
                .as("B entered while A's body ran, before A heard of a loss: %s", outcome)
                .isFalse();
        assertThat(outcome.enteredMs()).as("B entered at last").isNotNull();
    }

    @Test
    void aHolderWithAnEightSecondLeaseKeepsItsLockAcrossThePromotionOrHearsOfItsLossFirst() throws Exception {
        Outcome outcome = SentinelHolding.run(
                "SentinelFailoverTest lease 8s",
                "30s",
                1500,
                (work, started, release) -> work.holdForEightSeconds(KEY, started, release));
        assertThat(outcome.late())
                .as("B entered while A's body ran, before A heard of a loss: %s", outcome)
                .isFalse();
        assertThat(outcome.enteredMs()).as("B entered at last").isNotNull();
    }
}
