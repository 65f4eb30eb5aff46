package dev.padlock.cdi.roundtrips;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.CommandStats;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson 4.7.0's watchdog starts one more renewal timer chain for every lock taken while no other is held, and
 * never cancels one, so after a burst of short calls a single held lock is renewed once per chain per period. The
 * control reproduces that with raw {@code lock(); unlock();}; Padlock's watchdog-mode locks, after the same burst,
 * cost about one renewal script per held lock per period, and are still renewed (held past the watchdog timeout).
 *
 * <p>The window in which renewals are counted holds exactly one lock and sends nothing else, so every EVAL/EVALSHA
 * in it is a renewal.
 */
@ExtendWith(RedisExtension.class)
class RenewalStormTest {

    static final long WATCHDOG_MILLIS = 2_000;
    /** Redisson's watchdog and Padlock's renewal both tick every third of the watchdog timeout. */
    static final long PERIOD_MILLIS = WATCHDOG_MILLIS / 3;

    static final int BURST = 1_000;
    /** Longer than the watchdog timeout, so a lock that is not renewed would expire within it. */
    static final long HOLD_MILLIS = WATCHDOG_MILLIS + WATCHDOG_MILLIS / 2;

    static RedisServer redis;

    @ApplicationScoped
    public static class Jobs {
        @Locked(value = "short", key = "{i}")
        public void shortCall(int i) {}

        /** Holds its lock while counting the renewals. */
        @Locked("long")
        public Window longCall() throws InterruptedException {
            return countWhileHeld("padlock:long");
        }
    }

    /** What happened while one lock was held. */
    record Window(long renewals, long heldMillis, long ttlAtEnd) {
        long periods() {
            return heldMillis / PERIOD_MILLIS;
        }
    }

    /** Counts renewal scripts over {@link #HOLD_MILLIS} while the caller holds {@code key}. */
    static Window countWhileHeld(String key) throws InterruptedException {
        CommandStats before = settled();
        long start = System.nanoTime();
        Thread.sleep(HOLD_MILLIS);
        long ttl = (Long) redis.command("PTTL", key);
        CommandStats during = redis.commandStats().minus(before);
        long held = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return new Window(during.calls("evalsha") + during.calls("eval"), held, ttl);
    }

    /** Stats once the burst's fire-and-forget DELs have landed (two reads in a row agree, PINGs aside). */
    static CommandStats settled() throws InterruptedException {
        CommandStats last = redis.commandStats();
        for (int i = 0; i < 100; i++) {
            Thread.sleep(20);
            CommandStats now = redis.commandStats();
            CommandStats change = now.minus(last);
            if (change.total() == change.calls("ping")) {
                return now;
            }
            last = now;
        }
        return last;
    }

    @BeforeEach
    void startFromAnEmptyServer(RedisServer server) {
        redis = server;
        server.flushAll();
    }

    @Test
    void afterABurstOfShortCallsAHeldLockIsRenewedAboutOncePerPeriod(RedisServer server) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", server.uri(), "padlock.watchdog-timeout", WATCHDOG_MILLIS + "ms"),
                Jobs.class)) {
            Jobs jobs = app.bean(Jobs.class);
            for (int i = 0; i < BURST; i++) {
                jobs.shortCall(i % 16);
            }

            Window window = jobs.longCall();

            assertThat(window.ttlAtEnd())
                    .as("held past the watchdog timeout, so it was renewed")
                    .isPositive();
            assertThat(window.renewals())
                    .as(
                            "renewal scripts while one lock was held for %d ms (%d periods)",
                            window.heldMillis(), window.periods())
                    .isBetween(1L, window.periods() + 1);
            assertThat(server.command("KEYS", "padlock:*"))
                    .as("released afterwards")
                    .asList()
                    .isEmpty();
        }
    }

    /** The control: raw Redisson's watchdog after the same burst renews the one held lock once per leaked chain. */
    @Test
    void rawRedissonRenewsAHeldLockOnceForEveryEarlierShortLock(RedisServer server) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri());
        config.setLockWatchdogTimeout(WATCHDOG_MILLIS);
        RedissonClient raw = Redisson.create(config);
        try {
            for (int i = 0; i < BURST; i++) {
                RLock lock = raw.getLock("raw-short:" + (i % 16));
                lock.lock();
                lock.unlock();
            }
            RLock held = raw.getLock("raw-long");
            held.lock();
            Window window;
            try {
                window = countWhileHeld("raw-long");
            } finally {
                held.unlock();
            }

            assertThat(window.ttlAtEnd()).isPositive();
            assertThat(window.renewals())
                    .as(
                            "renewal scripts while one lock was held for %d ms (%d periods)",
                            window.heldMillis(), window.periods())
                    .isGreaterThan(10 * (window.periods() + 1));
        } finally {
            raw.shutdown();
        }
    }
}
