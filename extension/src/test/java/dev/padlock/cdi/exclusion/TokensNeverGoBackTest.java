package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockContext;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ServerClock;
import dev.padlock.testing.ServerOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Fencing tokens minted from the server's clock ({@code TimeFencedLock}): a server restarted without persistence
 * forgets every token, and the next one is still larger than all before, where Redisson's counter starts again at 1
 * (the control). A server clock that stands still or goes back keeps tokens growing by the kept counter; only a clock
 * that went back further than the time between two acquisitions, on a server that also forgot the counter, gives a
 * smaller token, the limit the irreversible-steps guide states.
 */
class TokensNeverGoBackTest {

    private static final String LOCK = "padlock:tokens";
    private static final String RAW_LOCK = "raw-tokens";

    @ApplicationScoped
    public static class Ledger {
        @Inject
        LockContext lock;

        @Locked(value = "tokens", type = LockType.FENCED, leaseTime = "10s")
        public long token() {
            return lock.token();
        }
    }

    @Test
    void aServerRestartedWithoutPersistenceIssuesALargerTokenNotTheFirstAgain() throws Exception {
        try (RedisServer redis = Redis.startServer();
                Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Ledger.class)) {
            RedissonClient raw = rawClient(redis);
            try {
                Ledger ledger = app.bean(Ledger.class);
                long before = ledger.token();
                rawToken(raw);
                long rawBefore = rawToken(raw); // 2: the control's counter has gone past its start

                redis.restart();
                assertThat(redis.command("EXISTS", "redisson_lock_token:{" + LOCK + "}"))
                        .as("the restarted server kept no token")
                        .isEqualTo(0L);

                long after = Waits.retried(ledger::token);
                assertThat(after).as("Padlock's next token").isGreaterThan(before);
                assertThat(rawToken(raw))
                        .as("the control: Redisson's counter, restarted at 1 (it was %d)", rawBefore)
                        .isEqualTo(1L)
                        .isLessThan(rawBefore);
            } finally {
                raw.shutdown();
            }
        }
    }

    @Test
    void aClockThatStandsStillOrStepsBackKeepsTokensGrowingByOne() throws Exception {
        try (ServerClock clock = ServerClock.create();
                RedisServer redis = Redis.startServer(ServerOptions.defaults().clock(clock));
                Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            ledger.token();
            clock.freeze();
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                tokens.add(ledger.token());
            }
            clock.step(Duration.ofMinutes(-10));
            for (int i = 0; i < 3; i++) {
                tokens.add(ledger.token());
            }

            for (int i = 1; i < tokens.size(); i++) {
                assertThat(tokens.get(i))
                        .as("token %d of %s, minted on a clock that stood still, then went back", i, tokens)
                        .isEqualTo(tokens.get(i - 1) + 1);
            }
        }
    }

    /**
     * The limit: a server that forgot its tokens and whose clock went back further than the time since the last
     * acquisition can only mint from that clock. What the guide says: keep the servers' clocks synchronised.
     */
    @Test
    void aRestartOnAClockSetBackFurtherThanTheGapIssuesASmallerToken() throws Exception {
        try (ServerClock clock = ServerClock.create();
                RedisServer redis = Redis.startServer(ServerOptions.defaults().clock(clock));
                Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            long before = ledger.token();

            clock.step(Duration.ofMinutes(-10));
            redis.restart();

            assertThat(Waits.retried(ledger::token)).isLessThan(before);
        }
    }

    private static RedissonClient rawClient(RedisServer redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        return Redisson.create(config);
    }

    /** One acquisition of Redisson's own fenced lock, released at once: its token. */
    private static long rawToken(RedissonClient raw) throws Exception {
        return Waits.retried(() -> {
            RFencedLock lock = raw.getFencedLock(RAW_LOCK);
            Long token = lock.tryLockAndGetToken(5, 10, TimeUnit.SECONDS);
            lock.unlock();
            return token;
        });
    }
}
