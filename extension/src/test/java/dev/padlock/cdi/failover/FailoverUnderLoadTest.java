package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.failover.FailoverLoad.Counters;
import dev.padlock.cdi.failover.FailoverLoad.Deployments;
import dev.padlock.cdi.failover.FailoverLoad.Ledger;
import dev.padlock.cdi.failover.FailoverLoad.Tally;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Three applications x 8 threads on 16 keys and a hot key, through a Sentinel failover with the default watchdog
 * (leases outlast the outage): no two calls of a key overlap, no update is lost, every call ends, and calls succeed
 * after the promotion (see {@link FailoverLoad}). The same load without the lock overlaps and loses updates, which
 * shows the check can fail.
 */
class FailoverUnderLoadTest {

    @Test
    void noTwoCallsOfAKeyOverlapAndNoUpdateIsLostWhileTheMasterFailsOver() throws Exception {
        FailoverLoad.runThroughFailover("FailoverUnderLoadTest, default watchdog", Map.of(), 0);
    }

    @Test
    void withoutTheLockTheSameLoadOverlapsAndLosesUpdates() throws Exception {
        try (RedisSentinel sentinel = Redis.startSentinel();
                Deployments apps = Deployments.start(sentinel, Map.of())) {
            Tally tally = new Tally();
            FailoverLoad.run(apps, tally, Counters::incrementUnlocked, 0, () -> Promotions.sleep(2000));
            Map<Integer, Integer> lostUpdates = FailoverLoad.lostUpdates();
            System.out.printf(
                    "FailoverUnderLoadTest, no lock: %d calls, overlaps %d, lost updates %s%n",
                    tally.succeeded.get(), Ledger.overlaps.get(), lostUpdates);
            assertThat(Ledger.overlaps.get()).isPositive();
            assertThat(lostUpdates).isNotEmpty();
        }
    }
}
