package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.core.redis.TimeFencedLock;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * {@code LockContext} inside a locked call, and fencing tokens: taken with the Redisson form that honours the
 * wait and the lease, and strictly increasing across holders and JVMs.
 */
@ExtendWith(RedisExtension.class)
class FencingTokenTest {

    @ApplicationScoped
    public static class Ledger {
        @Inject
        LockContext lock;

        @Inject
        RedissonClient redis;

        /** Appends "<who>:<token>" to a Redis list while holding the lock, so the list is in holding order. */
        @Locked(value = "ledger", type = LockType.FENCED)
        public long append(String who) {
            long token = lock.token();
            redis.getList("ledger-log", org.redisson.client.codec.StringCodec.INSTANCE)
                    .add(who + ":" + token);
            return token;
        }

        @Locked(value = "fenced-lease", type = LockType.FENCED, leaseTime = "5s")
        public long leaseSeen(String key) {
            return redis.getBucket(key).remainTimeToLive(); // the lock's own hash: its PTTL
        }

        @Locked(value = "fenced-hold", type = LockType.FENCED)
        public void hold(CountDownLatch taken, CountDownLatch release) throws InterruptedException {
            taken.countDown();
            release.await(30, TimeUnit.SECONDS);
        }

        @Locked(value = "fenced-hold", type = LockType.FENCED, waitTime = "0")
        public long tryOnce() {
            return lock.token();
        }

        @Locked(value = "fenced-hold", type = LockType.FENCED, waitTime = "10s")
        public long waitUpTo10s() {
            return lock.token();
        }

        @Locked(
                value = "plain",
                key = {"{a}", "{b}"})
        public List<Object> describe(String a, String b) {
            List<Object> seen = new ArrayList<>();
            seen.add(lock.isActive());
            seen.add(lock.key());
            seen.add(lock.keys());
            seen.add(lock.acquiredAt());
            seen.add(catchThrowable(lock::token));
            return seen;
        }

        @Locked(
                value = "multi-fenced",
                key = {"{a}", "{b}"},
                type = LockType.FENCED)
        public List<Long> tokens(String a, String b) {
            return List.of(lock.token("padlock:multi-fenced:" + a), lock.token("padlock:multi-fenced:" + b));
        }

        public LockContext context() {
            return lock;
        }
    }

    /**
     * What the irreversible-steps guide says (docs/guides/irreversible-steps.md): a fenced key's last token is kept
     * without expiry in Redisson's counter key, so tokens keep increasing after the lock is released, and each distinct
     * key leaves one small key behind.
     */
    @Test
    void aFencedKeysTokenCounterOutlivesItsLock(RedisServer redis) {
        redis.flushAll();
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            long first = ledger.append("a");

            assertThat(redis.command("EXISTS", "padlock:ledger"))
                    .as("the lock is released")
                    .isEqualTo(0L);
            assertThat(redis.command("TTL", "redisson_lock_token:{padlock:ledger}"))
                    .as("its token counter stays, without expiry")
                    .isEqualTo(-1L);
            assertThat(redis.command("GET", "redisson_lock_token:{padlock:ledger}"))
                    .as("the counter holds the last token")
                    .isEqualTo(Long.toString(first));
            assertThat(ledger.append("b")).isGreaterThan(first);
        }
    }

    @Test
    void lockContextDescribesTheRunningCallOnly(RedisServer redis) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            Instant before = Instant.now();
            List<Object> seen = ledger.describe("y", "x");
            assertThat(seen.get(0)).isEqualTo(true);
            assertThat(seen.get(1)).as("first in key order").isEqualTo("padlock:plain:x");
            assertThat(seen.get(2)).isEqualTo(List.of("padlock:plain:x", "padlock:plain:y"));
            assertThat((Instant) seen.get(3)).isBetween(before.minusMillis(1), Instant.now());
            assertThat((Throwable) seen.get(4))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("REENTRANT, which has no fencing token")
                    .hasMessageContaining("type = FENCED");

            LockContext outside = ledger.context();
            assertThat(outside.isActive()).isFalse();
            assertThat(catchThrowable(outside::key))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only valid inside a @Locked call or code run through Locks");

            List<Long> tokens = ledger.tokens("b", "a");
            assertThat(tokens).hasSize(2).allSatisfy(t -> assertThat(t).isPositive());
        }
    }

    @Test
    void theLeaseAndTheWaitOfAFencedLockAreHonoured(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri());
        // The holder is another application: callers of the same one would queue in Padlock, not in Redisson.
        try (Deployment app = Deployment.start(config, Ledger.class);
                Deployment other = Deployment.start("other", config, Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            Ledger otherLedger = other.bean(Ledger.class);
            // Redisson's lockAndGetToken(lease, unit) would ignore the lease and use the 30 s watchdog timeout.
            assertThat(ledger.leaseSeen("padlock:fenced-lease")).isBetween(1L, 5_000L);

            ExecutorService holder = Executors.newSingleThreadExecutor();
            try {
                CountDownLatch taken = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                Future<?> holding = holder.submit(() -> {
                    otherLedger.hold(taken, release);
                    return null;
                });
                assertThat(taken.await(10, TimeUnit.SECONDS)).isTrue();
                long holders =
                        Long.parseLong((String) redis.command("GET", "redisson_lock_token:{padlock:fenced-hold}"));
                // tryLockAndGetToken() without arguments would block here instead of trying once.
                CompletableFuture<Throwable> once =
                        CompletableFuture.supplyAsync(() -> catchThrowable(ledger::tryOnce));
                assertThat(once.get(5, TimeUnit.SECONDS)).isInstanceOf(LockNotAcquiredException.class);

                CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(ledger::waitUpTo10s);
                // Waiting means subscribed to the lock's release channel; a single try never subscribes.
                String channel = "redisson_lock__channel:{padlock:fenced-hold}";
                for (int i = 0; i < 200 && !subscribed(redis, channel); i++) {
                    Thread.sleep(25);
                }
                assertThat(subscribed(redis, channel))
                        .as("the caller waits for the release")
                        .isTrue();
                assertThat(waiting).isNotDone();
                release.countDown();
                holding.get(10, TimeUnit.SECONDS);
                assertThat(waiting.get(10, TimeUnit.SECONDS))
                        .as("the token of a call that waited in Redis")
                        .isGreaterThan(holders);
            } finally {
                holder.shutdownNow();
            }
        }
    }

    /**
     * A {@code @Named RFencedLock} bean is Padlock's fenced lock, used as Redisson's: its caller's units hold for a wait
     * in Redis too (one second, not a thousand), and the caller that waited gets a token larger than the holder's.
     */
    @Test
    void aFencedLockWaitedForInSecondsWaitsThatLongAndThenGetsALargerToken(RedisServer redis) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient raw = Redisson.create(config);
        ExecutorService holder = Executors.newSingleThreadExecutor();
        try {
            RFencedLock held = (RFencedLock) TimeFencedLock.of(raw, "fenced-units");
            long holders = holder.submit(() -> held.tryLockAndGetToken(0, 30, TimeUnit.SECONDS))
                    .get(10, TimeUnit.SECONDS);
            RFencedLock waiter = (RFencedLock) TimeFencedLock.of(raw, "fenced-units");

            assertThat(CompletableFuture.supplyAsync(() -> waiter.tryLockAndGetToken(1, 10, TimeUnit.SECONDS))
                            .get(10, TimeUnit.SECONDS))
                    .as("not free within the 1 s wait")
                    .isNull();

            CompletableFuture<Long> waiting =
                    CompletableFuture.supplyAsync(() -> waiter.tryLockAndGetToken(20, 10, TimeUnit.SECONDS));
            holder.submit(held::unlock).get(10, TimeUnit.SECONDS);
            assertThat(waiting.get(10, TimeUnit.SECONDS))
                    .as("the token of a caller that waited in Redis, after the holder's %d", holders)
                    .isGreaterThan(holders);
        } finally {
            holder.shutdownNow();
            raw.shutdown();
        }
    }

    private static boolean subscribed(RedisServer redis, String channel) {
        List<?> numsub = (List<?>) redis.command("PUBSUB", "NUMSUB", channel);
        return ((Long) numsub.get(1)) > 0;
    }

    @Test
    void tokensStrictlyIncreaseAcrossHoldersAndJvms(RedisServer redis) throws Exception {
        int perThread = 150;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Ledger.class)) {
            Ledger ledger = app.bean(Ledger.class);
            Process other = FencedLedgerMain.start(redis.uri(), "jvm2", perThread);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> calls = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    String who = "jvm1-t" + t;
                    calls.add(threads.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            ledger.append(who);
                        }
                        return null;
                    }));
                }
                for (Future<?> call : calls) {
                    call.get(2, TimeUnit.MINUTES);
                }
                assertThat(other.waitFor(2, TimeUnit.MINUTES))
                        .as("the second JVM finished")
                        .isTrue();
                assertThat(other.exitValue()).as(FencedLedgerMain.output(other)).isZero();
            } finally {
                threads.shutdownNow();
                other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }

            @SuppressWarnings("unchecked")
            List<String> log = (List<String>) (List<?>) redis.command("LRANGE", "ledger-log", "0", "-1");
            assertThat(log).hasSize(3 * perThread);
            assertThat(log).anyMatch(e -> e.startsWith("jvm2:")).anyMatch(e -> e.startsWith("jvm1-"));
            long previous = 0;
            for (String entry : log) {
                long token = Long.parseLong(entry.substring(entry.indexOf(':') + 1));
                assertThat(token)
                        .as("token after %d, in holding order: %s", previous, entry)
                        .isGreaterThan(previous);
                previous = token;
            }
        }
    }

    /** The second JVM: the same bean under its own Weld container and Redisson client. */
    public static final class FencedLedgerMain {
        public static void main(String[] args) {
            try (Deployment app = Deployment.start(Map.of("padlock.redis.address", args[0]), Ledger.class)) {
                Ledger ledger = app.bean(Ledger.class);
                for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                    ledger.append(args[1]);
                }
            }
            System.exit(0);
        }

        static Process start(String redisUri, String who, int calls) throws java.io.IOException {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            return new ProcessBuilder(
                            java.toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            FencedLedgerMain.class.getName(),
                            redisUri,
                            who,
                            Integer.toString(calls))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            Path.of("target", "fenced-ledger-" + who + ".log").toFile()))
                    .start();
        }

        static String output(Process p) {
            try {
                return java.nio.file.Files.readString(Path.of("target", "fenced-ledger-jvm2.log"));
            } catch (java.io.IOException e) {
                return "(no output: " + e + ")";
            }
        }
    }
}
