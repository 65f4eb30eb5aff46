package dev.padlock.cdi.roundtrips;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Callers;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.CommandStats;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Under contention (8 threads on one key), what a {@code @Locked} call costs in lock attempts, against raw
 * Redisson on the same server. Counted, not timed: every attempt is one run of Redisson's lock script (an
 * EVALSHA; a failed one also runs EXISTS, HEXISTS and PTTL inside it), so lock attempts per call are the
 * EVALSHA/EVAL calls in {@code INFO commandstats} divided by calls, minus one for the unlock script.
 *
 * <p>How many attempts a contended call needs depends on scheduling, so each comparison runs {@link #ROUNDS}
 * rounds that alternate which side goes first, and compares the median of the per-round differences.
 *
 * <p>Padlock must not cost more than the blocking {@code lock()}/{@code tryLock()} a user would otherwise call.
 * It acquires through Redisson's asynchronous {@code tryLockAsync(wait, lease, unit, owner)}, the only
 * acquisition with an explicit owner that an interrupt cannot strand (the blocking calls throw while their lock
 * script may already have run: see {@link dev.padlock.cdi.failures.InterruptedCallerTest}), and on its own that call costs about one more
 * failed attempt per contended call than the blocking ones. The cause is Redisson 4.7.0's: its {@code
 * LockPubSub.onMessage} answers an unlock message both by running one asynchronous waiter's retry ({@code
 * RedissonLockEntry.tryRunListener}) and by releasing a permit on the entry's semaphore, meant for blocked threads;
 * with no blocked thread to take it, the next asynchronous waiter whose attempt fails finds the permit ({@code
 * entry.getLatch().tryAcquire()} in {@code RedissonLock.tryLockAsync}) and retries at once, while the lock is
 * already taken again. The raw {@code tryLockAsync} side shows it, and is the control: it is what {@code @Locked}
 * cost before its calls queued locally ({@code LocalTurns}: one call per key and application asks Redis, the
 * others wait for it to release).
 */
@ExtendWith(RedisExtension.class)
class ContendedRoundTripsTest {

    static final int THREADS = 8;
    static final int CALLS_PER_ROUND = 600;
    static final int ROUNDS = 8;
    /**
     * Attempts per call by which two sides may differ by scheduling alone. Single rounds of the same acquisition
     * differ by up to 1.2 (a round dips when the machine is busy: 2 cores, other builds running); the median of
     * 12 per-round differences stayed within 0.06, between two identical sides and between {@code @Locked} and
     * the raw {@code tryLockAsync} it makes, over 4 runs.
     */
    static final double SCHEDULING = 0.3;

    static final String LOCKED = "@Locked";
    static final String LOCKED_LEASE = "@Locked(leaseTime)";
    static final String RAW_ASYNC = "raw tryLockAsync(wait, lease, owner)";
    static final String RAW_LOCK = "raw lock()";
    static final String RAW_TRY_LOCK = "raw tryLock(wait, lease)";

    static final String LEASE = "30s";
    static final long LEASE_SECONDS = 30;

    @ApplicationScoped
    public static class Contended {
        @Locked(value = "contended-watchdog", waitTime = LEASE)
        public void watchdog() {}

        @Locked(value = "contended-lease", waitTime = LEASE, leaseTime = LEASE)
        public void lease() {}
    }

    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    private static RedissonClient rawClient(RedisServer redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        return Redisson.create(config);
    }

    /** The acquisition Padlock makes, called by hand: explicit owner, fixed lease, then an owner-checked release. */
    @SuppressWarnings("deprecation") // Thread.getId(): Redisson's owner id; threadId() is Java 19+.
    private static Call rawAsync(RedissonClient raw, String name) {
        return () -> {
            RLock lock = raw.getLock(name);
            long owner = Thread.currentThread().getId();
            assertThat(lock.tryLockAsync(LEASE_SECONDS, LEASE_SECONDS, TimeUnit.SECONDS, owner)
                            .get())
                    .isTrue();
            lock.unlockAsync(owner).get();
        };
    }

    private static Call rawLock(RedissonClient raw, String name) {
        return () -> {
            RLock lock = raw.getLock(name);
            lock.lock();
            lock.unlock();
        };
    }

    private static Call rawTryLock(RedissonClient raw, String name) {
        return () -> {
            RLock lock = raw.getLock(name);
            assertThat(lock.tryLock(LEASE_SECONDS, LEASE_SECONDS, TimeUnit.SECONDS))
                    .isTrue();
            lock.unlock();
        };
    }

    /** Lock attempts per call of each side, round by round; sides take turns at going first. */
    private static Map<String, double[]> attemptsPerCall(RedisServer redis, Map<String, Call> sides) throws Exception {
        Map<String, double[]> attempts = new LinkedHashMap<>();
        for (Map.Entry<String, Call> side : sides.entrySet()) {
            contend(side.getValue(), 200); // loads the scripts, opens the connections, subscribes once
            attempts.put(side.getKey(), new double[ROUNDS]);
        }
        List<String> order = new ArrayList<>(sides.keySet());
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < order.size(); i++) {
                String name = order.get((i + round) % order.size());
                CommandStats before = redis.settledCommandStats();
                contend(sides.get(name), CALLS_PER_ROUND);
                CommandStats during = redis.settledCommandStats().minus(before);
                long scripts = during.calls("evalsha") + during.calls("eval");
                attempts.get(name)[round] = (double) scripts / CALLS_PER_ROUND - 1; // one script is the unlock
            }
        }
        return attempts;
    }

    /** {@code calls} calls from {@link #THREADS} threads at once, all on the same key. */
    private static void contend(Call call, int calls) throws Exception {
        AtomicInteger left = new AtomicInteger(calls);
        Callers.start(THREADS, caller -> {
                    while (left.getAndDecrement() > 0) {
                        call.run();
                    }
                })
                .await();
    }

    /** The median over rounds of how many more attempts per call {@code candidate} made than {@code baseline}. */
    private static double medianExcess(Map<String, double[]> attempts, String candidate, String baseline) {
        double[] excess = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            excess[round] = attempts.get(candidate)[round] - attempts.get(baseline)[round];
        }
        return median(excess);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return (sorted[(sorted.length - 1) / 2] + sorted[sorted.length / 2]) / 2;
    }

    private static String describe(Map<String, double[]> attempts) {
        StringBuilder text = new StringBuilder("lock attempts per call, by round:");
        attempts.forEach(
                (side, rounds) -> text.append("\n  ").append(side).append(' ').append(Arrays.toString(rounds)));
        return text.toString();
    }

    @Test
    void aContendedLockedCallMakesNoMoreAttemptsThanRawRedisson(RedisServer redis) throws Exception {
        redis.flushAll();
        RedissonClient raw = rawClient(redis);
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Contended.class)) {
            Contended contended = app.bean(Contended.class);
            Map<String, Call> sides = new LinkedHashMap<>();
            sides.put(LOCKED, contended::watchdog);
            sides.put(LOCKED_LEASE, contended::lease);
            sides.put(RAW_ASYNC, rawAsync(raw, "raw-async"));
            sides.put(RAW_LOCK, rawLock(raw, "raw-lock"));
            sides.put(RAW_TRY_LOCK, rawTryLock(raw, "raw-trylock"));
            Map<String, double[]> attempts = attemptsPerCall(redis, sides);
            String figures = describe(attempts);
            System.out.println(figures);

            assertThat(median(attempts.get(RAW_LOCK)))
                    .as("the calls contended: raw lock() failed half a time or more per call; %s", figures)
                    .isGreaterThan(1.5);
            assertThat(medianExcess(attempts, LOCKED, RAW_LOCK)).as(figures).isLessThanOrEqualTo(SCHEDULING);
            assertThat(medianExcess(attempts, LOCKED_LEASE, RAW_TRY_LOCK))
                    .as(figures)
                    .isLessThanOrEqualTo(SCHEDULING);
            // the control: the acquisition @Locked makes, called by each thread for itself, costs more
            assertThat(medianExcess(attempts, RAW_ASYNC, RAW_LOCK))
                    .as("Redisson's asynchronous waiters are woken twice per unlock; %s", figures)
                    .isGreaterThan(SCHEDULING);
        } finally {
            raw.shutdown();
        }
    }

    /**
     * The control: one extra failed attempt per call is beyond what scheduling explains. It shows as 0.7 to 0.8
     * rather than 1 (holding the lock one round trip longer changes the race that follows an unlock).
     */
    @Test
    @SuppressWarnings("deprecation") // Thread.getId(), as above
    void theComparisonCatchesOneExtraAttemptPerCall(RedisServer redis) throws Exception {
        redis.flushAll();
        RedissonClient raw = rawClient(redis);
        try {
            Map<String, Call> sides = new LinkedHashMap<>();
            sides.put("plain", rawAsync(raw, "plain"));
            sides.put("extra", () -> {
                RLock lock = raw.getLock("extra");
                long owner = Thread.currentThread().getId();
                assertThat(lock.tryLockAsync(LEASE_SECONDS, LEASE_SECONDS, TimeUnit.SECONDS, owner)
                                .get())
                        .isTrue();
                // another owner tries once, without waiting: one failed lock script, nothing else
                assertThat(lock.tryLockAsync(0, LEASE_SECONDS, TimeUnit.SECONDS, -owner)
                                .get())
                        .isFalse();
                lock.unlockAsync(owner).get();
            });
            Map<String, double[]> attempts = attemptsPerCall(redis, sides);

            assertThat(medianExcess(attempts, "extra", "plain"))
                    .as(describe(attempts))
                    .isGreaterThan(SCHEDULING);
        } finally {
            raw.shutdown();
        }
    }
}
