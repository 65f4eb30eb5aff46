package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockContext;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import dev.padlock.testing.ReplicationCut;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RFencedLock;
import org.redisson.api.RedissonClient;

/**
 * A failover to a replica that missed the last acquisition: the replica's copy of the key's token is one acquisition
 * old, and the master dies with the newer one. The sentinels promote the replica, and the next acquisition's token
 * must still be larger than every token issued before, or a store that refuses older tokens would take the new holder
 * for the old one (a duplicate) or refuse it (a smaller one). Padlock mints from the server's clock ({@code
 * TimeFencedLock}); the control, Redisson's own fenced lock on the same servers, counts on from the replica's copy and
 * issues the last token again.
 *
 * <p>Without replica confirmation: with it, the acquisition the replica missed is refused (see {@code
 * ReplicaMissingRenewalsTest}), so no token is issued that a failover could lose.
 */
@Tag("firewall") // ReplicationCut: iptables and root, with -Pfirewall-tests
class TokensAfterFailoverTest {

    private static final String COUNTER = "redisson_lock_token:{padlock:fenced-failover}";
    private static final String RAW = "raw-fenced-failover";
    private static final String RAW_COUNTER = "redisson_lock_token:{" + RAW + "}";

    @ApplicationScoped
    public static class Ledger {
        @Inject
        LockContext lock;

        @Inject
        RedissonClient redis;

        @Locked(value = "fenced-failover", type = LockType.FENCED, leaseTime = "10s", waitTime = "1s")
        public long token() {
            return lock.token();
        }

        /** The control: Redisson's own fenced lock, taken and released at once. */
        public long rawToken() {
            RFencedLock raw = redis.getFencedLock(RAW);
            Long token = raw.tryLockAndGetToken(1, 10, TimeUnit.SECONDS);
            raw.unlock();
            return Objects.requireNonNull(token, "Redisson's fenced lock was not free");
        }
    }

    @Test
    void theFirstTokenAfterAFailoverToAReplicaThatMissedTheLastOneIsLargerThanAllBefore() throws Exception {
        try (RedisSentinel sentinel = Redis.startSentinel();
                Deployment app = Deployment.start(config(sentinel), Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            long first = ledger.token();
            long rawFirst = ledger.rawToken();
            Waits.until(
                    () -> String.valueOf(first).equals(sentinel.replica().command("GET", COUNTER))
                            && String.valueOf(rawFirst)
                                    .equals(sentinel.replica().command("GET", RAW_COUNTER)),
                    "the replica has both first tokens");

            long missed;
            long rawMissed;
            try (ReplicationCut cut = ReplicationCut.start(sentinel.master(), sentinel.replica())) {
                missed = ledger.token();
                rawMissed = ledger.rawToken();
                Thread.sleep(200); // what the master sends the replica in this time is dropped
                assertThat(sentinel.replica().command("GET", COUNTER))
                        .as("the replica missed the second acquisition")
                        .isEqualTo(String.valueOf(first));
                assertThat(sentinel.replica().command("GET", RAW_COUNTER)).isEqualTo(String.valueOf(rawFirst));

                int oldPort = sentinel.master().port();
                sentinel.master().kill();
                Promotions.awaitSentinelPromotion(sentinel, oldPort);
            }

            long after = Waits.retried(ledger::token);
            long rawAfter = Waits.retried(ledger::rawToken);
            System.out.printf(
                    "TokensAfterFailoverTest: Padlock's tokens %d, %d (missed), then %d; Redisson's %d, %d (missed),"
                            + " then %d%n",
                    first, missed, after, rawFirst, rawMissed, rawAfter);

            assertThat(missed).isGreaterThan(first);
            assertThat(after)
                    .as("Padlock's first token on the promoted replica")
                    .isGreaterThan(missed);
            assertThat(rawAfter)
                    .as("the control: Redisson's counter on the promoted replica issues the missed token again")
                    .isLessThanOrEqualTo(rawMissed);
        }
    }

    private static Map<String, String> config(RedisSentinel sentinel) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.mode", "sentinel");
        config.put("padlock.redis.nodes", String.join(",", sentinel.sentinelUris()));
        config.put("padlock.redis.sentinel.master-name", sentinel.masterName());
        config.put("padlock.redis.replica-confirmation", "false");
        return config;
    }
}
