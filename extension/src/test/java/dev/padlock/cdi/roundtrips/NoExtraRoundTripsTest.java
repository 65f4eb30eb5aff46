package dev.padlock.cdi.roundtrips;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.CommandStats;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An uncontended {@code @Locked} call sends Redis no command beyond what the raw Redisson calls it stands for
 * send: {@code lock(); unlock();} in watchdog mode, {@code tryLock(wait, lease); unlock();} with a lease. Counted
 * per command in {@code INFO commandstats} (script-internal calls included), for every lock type, so an added
 * {@code isLocked}, {@code isHeldByCurrentThread} or renewal would show. The control shows that the comparison
 * catches a single extra round trip per call.
 */
@ExtendWith(RedisExtension.class)
class NoExtraRoundTripsTest {

    static final int CALLS = 50;
    /** Redisson's connection keep-alive runs on a timer, whoever calls: not a cost of a call. */
    static final String KEEP_ALIVE = "ping";
    /**
     * What Padlock's fenced acquisition script runs where Redisson's runs {@code INCR} (one each per acquisition, inside
     * the one script; see {@code TimeFencedLock}): the server's time, the last token, the new one.
     */
    static final Set<String> MINTING = Set.of("time", "get", "set");

    @ApplicationScoped
    public static class Calls {
        @Locked(value = "rt-reentrant", key = "{i}")
        public void reentrant(int i) {}

        @Locked(value = "rt-fair", key = "{i}", type = LockType.FAIR)
        public void fair(int i) {}

        @Locked(value = "rt-read", key = "{i}", type = LockType.READ)
        public void read(int i) {}

        @Locked(value = "rt-write", key = "{i}", type = LockType.WRITE)
        public void write(int i) {}

        @Locked(value = "rt-spin", key = "{i}", type = LockType.SPIN)
        public void spin(int i) {}

        @Locked(value = "rt-fenced", key = "{i}", type = LockType.FENCED)
        public void fenced(int i) {}

        @Locked(value = "rt-reentrant-lease", key = "{i}", leaseTime = "30s")
        public void reentrantLease(int i) {}

        @Locked(value = "rt-fair-lease", key = "{i}", type = LockType.FAIR, leaseTime = "30s")
        public void fairLease(int i) {}

        @Locked(value = "rt-read-lease", key = "{i}", type = LockType.READ, leaseTime = "30s")
        public void readLease(int i) {}

        @Locked(value = "rt-write-lease", key = "{i}", type = LockType.WRITE, leaseTime = "30s")
        public void writeLease(int i) {}

        @Locked(value = "rt-spin-lease", key = "{i}", type = LockType.SPIN, leaseTime = "30s")
        public void spinLease(int i) {}

        @Locked(value = "rt-fenced-lease", key = "{i}", type = LockType.FENCED, leaseTime = "30s")
        public void fencedLease(int i) {}
    }

    @FunctionalInterface
    interface Call {
        void run(int i) throws Exception;
    }

    @BeforeEach
    void startFromAnEmptyServer(RedisServer redis) {
        redis.flushAll();
    }

    private static RedissonClient rawClient(RedisServer redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        return Redisson.create(config);
    }

    private static RLock rawLock(RedissonClient raw, LockType type, String name) {
        switch (type) {
            case FAIR:
                return raw.getFairLock(name);
            case READ:
                return raw.getReadWriteLock(name).readLock();
            case WRITE:
                return raw.getReadWriteLock(name).writeLock();
            case SPIN:
                return raw.getSpinLock(name);
            case FENCED:
                return raw.getFencedLock(name);
            default:
                return raw.getLock(name);
        }
    }

    /**
     * What {@code CALLS} calls sent, after a few unmeasured ones (the first call of a script loads it), once the
     * fire-and-forget DEL of Redisson's unlock latch has landed.
     */
    private static CommandStats commandsOf(RedisServer redis, Call call) throws Exception {
        for (int i = 0; i < 3; i++) {
            call.run(-1 - i);
        }
        CommandStats before = redis.settledCommandStats();
        for (int i = 0; i < CALLS; i++) {
            call.run(i);
        }
        return redis.settledCommandStats().minus(before);
    }

    /** The round trips that ran a script. */
    private static long scripts(CommandStats stats) {
        return stats.calls("evalsha") + stats.calls("eval");
    }

    /** The commands {@code candidate} ran more often than {@code baseline}, with how many more. */
    private static Map<String, Long> beyond(CommandStats candidate, CommandStats baseline) {
        Map<String, Long> extra = new TreeMap<>();
        candidate.asMap().forEach((command, calls) -> {
            if (!command.equals(KEEP_ALIVE) && calls > baseline.calls(command)) {
                extra.put(command, calls - baseline.calls(command));
            }
        });
        return extra;
    }

    @Test
    void anUncontendedLockedCallSendsNothingBeyondTheRawCallsItWraps(RedisServer redis) throws Exception {
        RedissonClient raw = rawClient(redis);
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Calls.class)) {
            Calls calls = app.bean(Calls.class);
            Map<String, Call> padlock = new LinkedHashMap<>();
            padlock.put("REENTRANT", calls::reentrant);
            padlock.put("FAIR", calls::fair);
            padlock.put("READ", calls::read);
            padlock.put("WRITE", calls::write);
            padlock.put("SPIN", calls::spin);
            padlock.put("FENCED", calls::fenced);
            padlock.put("REENTRANT lease", calls::reentrantLease);
            padlock.put("FAIR lease", calls::fairLease);
            padlock.put("READ lease", calls::readLease);
            padlock.put("WRITE lease", calls::writeLease);
            padlock.put("SPIN lease", calls::spinLease);
            padlock.put("FENCED lease", calls::fencedLease);

            Map<String, Map<String, Long>> extras = new TreeMap<>();
            for (Map.Entry<String, Call> row : padlock.entrySet()) {
                LockType type = LockType.valueOf(row.getKey().split(" ")[0]);
                boolean lease = row.getKey().endsWith("lease");
                String name = "raw-" + row.getKey().replace(' ', '-') + ":";
                Call rawCall = lease
                        ? i -> {
                            RLock lock = rawLock(raw, type, name + i);
                            assertThat(lock.tryLock(5, 30, TimeUnit.SECONDS)).isTrue();
                            lock.unlock();
                        }
                        : i -> {
                            RLock lock = rawLock(raw, type, name + i);
                            lock.lock();
                            lock.unlock();
                        };

                CommandStats ofRaw = commandsOf(redis, rawCall);
                CommandStats ofPadlock = commandsOf(redis, row.getValue());

                assertThat(scripts(ofPadlock))
                        .as("%s: the calls reached Redis (lock and unlock scripts)", row.getKey())
                        .isGreaterThanOrEqualTo(2L * CALLS);
                Map<String, Long> extra = beyond(ofPadlock, ofRaw);
                if (type == LockType.FENCED) {
                    assertThat(scripts(ofPadlock))
                            .as("%s: one script per acquisition and one per release, as raw Redisson", row.getKey())
                            .isEqualTo(scripts(ofRaw));
                    extra.entrySet().removeIf(e -> MINTING.contains(e.getKey()) && e.getValue() == CALLS);
                }
                if (!extra.isEmpty()) {
                    extras.put(row.getKey(), extra);
                }
            }
            assertThat(extras)
                    .as("commands @Locked sent beyond raw Redisson, per lock type, over %d calls", CALLS)
                    .isEmpty();
        } finally {
            raw.shutdown();
        }
    }

    /** The control: one extra round trip per call (an ownership check before unlock) is caught. */
    @Test
    void theComparisonCatchesOneExtraRoundTripPerCall(RedisServer redis) throws Exception {
        RedissonClient raw = rawClient(redis);
        try {
            CommandStats plain = commandsOf(redis, i -> {
                RLock lock = raw.getLock("plain:" + i);
                lock.lock();
                lock.unlock();
            });
            CommandStats checked = commandsOf(redis, i -> {
                RLock lock = raw.getLock("checked:" + i);
                lock.lock();
                if (lock.isHeldByCurrentThread()) {
                    lock.unlock();
                }
            });

            assertThat(beyond(checked, plain)).containsEntry("hexists", (long) CALLS);
            assertThat(beyond(plain, plain)).isEmpty();
        } finally {
            raw.shutdown();
        }
    }
}
