package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.CommandStats;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Padlock renews watchdog-mode locks itself (Redisson's watchdog multiplies its renewals, see
 * {@code RenewalStormTest}), with one script per lock layout. Every lock type, and a two-key call, stays held and
 * exclusive for more than twice the watchdog timeout; the control, a fixed lease of the same length held as long,
 * has expired by then, which shows the hold outlasted an unrenewed lease.
 */
@ExtendWith(RedisExtension.class)
class WatchdogRenewalTest {

    static final long WATCHDOG_MILLIS = 1_200;
    static final long HOLD_MILLIS = 2 * WATCHDOG_MILLIS + WATCHDOG_MILLIS / 2;

    @ApplicationScoped
    public static class Holders {
        @Locked("renew-reentrant")
        public Object reentrant(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-reentrant", waitTime = "0")
        public Object reentrantNow(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-fair", type = LockType.FAIR)
        public Object fair(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-fair", type = LockType.FAIR, waitTime = "0")
        public Object fairNow(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-spin", type = LockType.SPIN)
        public Object spin(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-spin", type = LockType.SPIN, waitTime = "0")
        public Object spinNow(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-fenced", type = LockType.FENCED)
        public Object fenced(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-fenced", type = LockType.FENCED, waitTime = "0")
        public Object fencedNow(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-write", type = LockType.WRITE)
        public Object write(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-write", type = LockType.WRITE, waitTime = "0")
        public Object writeNow(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-read", type = LockType.READ)
        public Object read(Supplier<Object> body) {
            return body.get();
        }

        /** A writer is what a held read lock excludes. */
        @Locked(value = "renew-read", type = LockType.WRITE, waitTime = "0")
        public Object readNow(Supplier<Object> body) {
            return body.get();
        }

        @Locked(
                value = "renew-pair",
                key = {"{a}", "{b}"},
                waitTime = "30s")
        public Object pair(String a, String b, Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-pair", key = "{a}", waitTime = "0")
        public Object pairNow(String a, Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "renew-fixed", leaseTime = "1200ms")
        public Object fixedLease(Supplier<Object> body) {
            return body.get();
        }

        @Locked("renew-lost")
        public Object losable(Supplier<Object> body) {
            return body.get();
        }
    }

    /** A lock held by a call on another thread, the key it should keep alive, and a second caller that must fail. */
    record Held(String key, Function<Supplier<Object>, Object> hold, Function<Supplier<Object>, Object> second) {}

    private static Map<String, Held> holds(Holders h) {
        Map<String, Held> holds = new LinkedHashMap<>();
        holds.put("reentrant", new Held("padlock:renew-reentrant", h::reentrant, h::reentrantNow));
        holds.put("fair", new Held("padlock:renew-fair", h::fair, h::fairNow));
        holds.put("spin", new Held("padlock:renew-spin", h::spin, h::spinNow));
        holds.put("fenced", new Held("padlock:renew-fenced", h::fenced, h::fencedNow));
        holds.put("write", new Held("padlock:renew-write", h::write, h::writeNow));
        holds.put("read", new Held("padlock:renew-read", h::read, h::readNow));
        holds.put(
                "pair", new Held("padlock:renew-pair:y", body -> h.pair("x", "y", body), body -> h.pairNow("y", body)));
        return holds;
    }

    @Test
    void everyLockTypeStaysHeldAndExclusiveForTwiceItsWatchdogTimeout(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", WATCHDOG_MILLIS + "ms"),
                Holders.class)) {
            Holders holders = app.bean(Holders.class);
            Map<String, Held> holds = holds(holders);
            CountDownLatch entered = new CountDownLatch(holds.size() + 1);
            CountDownLatch release = new CountDownLatch(1);
            Supplier<Object> body = () -> {
                entered.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "held";
            };
            ExecutorService pool = Executors.newFixedThreadPool(holds.size() + 1);
            List<CompletableFuture<Object>> calls = new ArrayList<>();
            for (Held held : holds.values()) {
                calls.add(CompletableFuture.supplyAsync(() -> held.hold().apply(body), pool));
            }
            calls.add(CompletableFuture.supplyAsync(() -> holders.fixedLease(body), pool));
            try {
                assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
                Thread.sleep(HOLD_MILLIS);

                Map<String, String> notKept = new LinkedHashMap<>();
                for (Map.Entry<String, Held> e : holds.entrySet()) {
                    long ttl = (Long) redis.command("PTTL", e.getValue().key());
                    Throwable second =
                            catchThrowable(() -> e.getValue().second().apply(() -> "second ran"));
                    if (ttl <= 0 || !(second instanceof LockNotAcquiredException)) {
                        notKept.put(e.getKey(), "PTTL " + ttl + ", second caller: " + second);
                    }
                }
                assertThat(notKept).as("locks not kept alive").isEmpty();
                assertThat(redis.command("KEYS", "{padlock:renew-read}:*:rwlock_timeout:*"))
                        .as("the read hold's own timeout key is renewed too")
                        .asList()
                        .hasSize(1);
                assertThat(redis.command("EXISTS", "padlock:renew-fixed"))
                        .as("the control: an unrenewed lease of the same length has expired by now")
                        .isEqualTo(0L);
            } finally {
                release.countDown();
                pool.shutdown();
            }
            for (CompletableFuture<Object> call : calls) {
                call.get(30, TimeUnit.SECONDS);
            }
            assertThat(redis.command("KEYS", "padlock:renew-*")).asList().isEmpty();
            assertThat(redis.command("KEYS", "{padlock:renew-*")).asList().isEmpty();
        }
    }

    /**
     * A two-key call takes its keys in order; while it waits for the second, longer than the watchdog timeout,
     * the first must not lapse. The second key's holder keeps the call waiting; the first key is then checked.
     */
    @Test
    void aKeyTakenFirstIsRenewedWhileTheNextIsAwaited(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", WATCHDOG_MILLIS + "ms"),
                Holders.class)) {
            Holders holders = app.bean(Holders.class);
            CountDownLatch secondHeld = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            CompletableFuture<Object> holder = CompletableFuture.supplyAsync(
                    () -> holders.pairNow("y", () -> {
                        secondHeld.countDown();
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return "holder";
                    }),
                    pool);
            try {
                assertThat(secondHeld.await(30, TimeUnit.SECONDS)).isTrue();
                CompletableFuture<Object> pair =
                        CompletableFuture.supplyAsync(() -> holders.pair("x", "y", () -> "pair ran"), pool);
                assertThat(eventually(() -> (Long) redis.command("EXISTS", "padlock:renew-pair:x") == 1L))
                        .as("the first key is taken while the second is awaited")
                        .isTrue();
                Thread.sleep(HOLD_MILLIS);

                assertThat(pair).isNotDone();
                assertThat((Long) redis.command("PTTL", "padlock:renew-pair:x"))
                        .as("the first key, held past twice its watchdog timeout while waiting")
                        .isPositive();
                release.countDown();
                assertThat(pair.get(30, TimeUnit.SECONDS)).isEqualTo("pair ran");
            } finally {
                release.countDown();
                pool.shutdown();
            }
            holder.get(30, TimeUnit.SECONDS);
            assertThat(redis.command("KEYS", "padlock:renew-pair*")).asList().isEmpty();
        }
    }

    /** Warnings Padlock's operations log, collected while a test runs. */
    static final class Warnings extends Handler implements AutoCloseable {
        private final Logger logger = Logger.getLogger("dev.padlock.core");
        private final List<String> messages = new CopyOnWriteArrayList<>();

        Warnings() {
            logger.addHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                messages.add(record.getMessage());
            }
        }

        List<String> containing(String text) {
            return messages.stream().filter(m -> m.contains(text)).toList();
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }

    /** Waits, by polling a bounded number of times, until {@code condition} holds; returns whether it did. */
    private static boolean eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return condition.getAsBoolean();
    }

    private static long scripts(RedisServer redis) {
        CommandStats stats = redis.commandStats();
        return stats.calls("evalsha") + stats.calls("eval");
    }

    /**
     * A lock that vanishes while its method runs (here deleted, as a Redis restart or failover would) is reported
     * at WARN naming lock and method at the next renewal, and then no longer renewed. The control is the same hold
     * before the deletion: renewed, and no warning.
     */
    @Test
    void aLockLostWhileHeldIsReportedByNameAndNoLongerRenewed(RedisServer redis) throws Exception {
        try (Warnings warnings = new Warnings();
                Deployment app = Deployment.start(
                        Map.of(
                                "padlock.redis.address",
                                redis.uri(),
                                "padlock.watchdog-timeout",
                                WATCHDOG_MILLIS + "ms"),
                        Holders.class)) {
            Holders holders = app.bean(Holders.class);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            CompletableFuture<Object> call = CompletableFuture.supplyAsync(
                    () -> holders.losable(() -> {
                        entered.countDown();
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return "done";
                    }),
                    pool);
            try {
                assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
                long atStart = scripts(redis);
                assertThat(eventually(() -> scripts(redis) >= atStart + 2))
                        .as("renewed while held")
                        .isTrue();
                assertThat(warnings.containing("renew-lost"))
                        .as("no warning while held")
                        .isEmpty();

                redis.command("DEL", "padlock:renew-lost");
                assertThat(eventually(() -> !warnings.containing("while the method ran: a lease renewal found")
                                .isEmpty()))
                        .isTrue();
                assertThat(warnings.containing("while the method ran: a lease renewal found"))
                        .singleElement()
                        .asString()
                        .contains("padlock:renew-lost", "Holders#losable");

                long afterLoss = scripts(redis);
                Thread.sleep(WATCHDOG_MILLIS);
                assertThat(scripts(redis) - afterLoss)
                        .as("renewal scripts for a lost lock over three periods")
                        .isZero();
            } finally {
                release.countDown();
                pool.shutdown();
            }
            call.get(30, TimeUnit.SECONDS);
        }
    }
}
