package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.quarkus.runtime.internal.PadlockRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The common shape of a service: a caller opens the transaction ({@code @Transactional}) and calls a {@code @Locked}
 * read-modify-write of a row in it. The locked method returns before the caller's transaction commits; with {@code
 * padlock.release=after-transaction} (the default) its lock is held until that commit, so the next holder, of this
 * application or another, reads the committed row. Each scenario has its control, a lock configured {@code
 * release=on-return}, where the next holder enters between the return and the commit, reads the old row and loses the
 * first caller's update. Narayana as the transaction manager, H2 in server mode as the database ({@link
 * TestDatabase}), a real Redis.
 */
class ReleaseAfterTransactionOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(
                    Rows.class,
                    Counter.class,
                    Callers.class,
                    Losses.class,
                    Meters.class,
                    TestRedis.class,
                    TestDatabase.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("quarkus.datasource.db-kind", "other")
            .overrideConfigKey("quarkus.datasource.jdbc.driver", "org.h2.Driver")
            .overrideConfigKey("quarkus.datasource.jdbc.url", TestDatabase.url())
            .overrideConfigKey("quarkus.datasource.username", "sa")
            .overrideConfigKey("padlock.locks.\"ledger-on-return\".release", "on-return")
            .overrideConfigKey("padlock.locks.\"ledger-short\".on-lease-lost", "throw")
            .overrideConfigKey("padlock.locks.\"ledger-hand-off\".hand-off-budget", "1m");

    /** The rows, through the application's datasource: enlisted in the caller's transaction. */
    @ApplicationScoped
    public static class Rows {
        @Inject
        DataSource database;

        int amount(String id) {
            try (Connection c = database.getConnection();
                    PreparedStatement read = c.prepareStatement("SELECT amount FROM counter WHERE id = ?")) {
                read.setString(1, id);
                try (ResultSet row = read.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        void set(String id, int amount) {
            try (Connection c = database.getConnection();
                    PreparedStatement write = c.prepareStatement("UPDATE counter SET amount = ? WHERE id = ?")) {
                write.setInt(1, amount);
                write.setString(2, id);
                write.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Read-modify-writes under a lock; each returns the amount it read. */
    @ApplicationScoped
    public static class Counter {
        @Inject
        Rows rows;

        @Locked(value = "ledger", key = "{id}", waitTime = "20s")
        public int increment(String id, Runnable afterRead) {
            return add(id, afterRead);
        }

        /** The control: {@code padlock.locks."ledger-on-return".release=on-return}. */
        @Locked(value = "ledger-on-return", key = "{id}", waitTime = "20s")
        public int incrementOnReturn(String id, Runnable afterRead) {
            return add(id, afterRead);
        }

        /** With {@code on-lease-lost=throw}. */
        @Locked(value = "ledger-short", key = "{id}", leaseTime = "1s")
        public int incrementWithShortLease(String id) {
            return add(id, () -> {});
        }

        @Locked(value = "ledger-short-warn", key = "{id}", leaseTime = "1s")
        public int incrementWithShortLeaseWarnOnly(String id) {
            return add(id, () -> {});
        }

        /** With {@code padlock.locks."ledger-hand-off".hand-off-budget=1m}: the key may pass to the next local caller. */
        @Locked(value = "ledger-hand-off", key = "{id}", waitTime = "20s")
        public int incrementHandingOn(String id, Runnable afterRead) {
            return add(id, afterRead);
        }

        @Locked(value = "ledger-metered", key = "{id}")
        public int incrementMetered(String id) {
            return add(id, () -> {});
        }

        @Locked(value = "ledger-twice", key = "{id}", waitTime = "2s")
        public int incrementBriefWait(String id) {
            return add(id, () -> {});
        }

        private int add(String id, Runnable afterRead) {
            int seen = rows.amount(id);
            afterRead.run();
            rows.set(id, seen + 1);
            return seen;
        }
    }

    /** Callers that own the transaction. */
    @ApplicationScoped
    public static class Callers {
        @Inject
        Counter counter;

        @Transactional
        public int incrementThenWait(String lock, String id, CountDownLatch returned, CountDownLatch mayCommit)
                throws InterruptedException {
            int seen = increment(lock, id, () -> {});
            returned.countDown();
            // Time for a next holder to read the row before this transaction commits, if the lock lets it in.
            mayCommit.await(1, TimeUnit.SECONDS);
            return seen;
        }

        @Transactional
        public int increment(String lock, String id, CountDownLatch started, Runnable afterRead) {
            started.countDown();
            return increment(lock, id, afterRead);
        }

        private int increment(String lock, String id, Runnable afterRead) {
            return switch (lock) {
                case "ledger" -> counter.increment(id, afterRead);
                case "ledger-on-return" -> counter.incrementOnReturn(id, afterRead);
                case "ledger-hand-off" -> counter.incrementHandingOn(id, afterRead);
                default -> throw new IllegalArgumentException(lock);
            };
        }

        @Transactional
        public void incrementThenFail(String id) {
            counter.increment(id, () -> {});
            throw new IllegalStateException("the caller fails after the locked call returned");
        }

        @Transactional
        public void incrementThenOutliveTheLease(String id, boolean throwOnLoss) throws InterruptedException {
            if (throwOnLoss) {
                counter.incrementWithShortLease(id);
            } else {
                counter.incrementWithShortLeaseWarnOnly(id);
            }
            Thread.sleep(1_500);
        }

        @Transactional
        public void incrementTwice(String id) {
            counter.incrementBriefWait(id);
            counter.incrementBriefWait(id);
        }

        /** What the meters and Redis say between the locked call's return and the commit. */
        @Transactional
        public String incrementThenLook(String id, MeterRegistry registry) {
            counter.incrementMetered(id);
            return describe(registry, "ledger-metered", "padlock:ledger-metered:" + id);
        }

        /** The same through {@code Locks}: a lock taken in code is released after the transaction too. */
        @Transactional
        public String incrementInCodeThenLook(String id, MeterRegistry registry) {
            locks.on("ledger-in-code", id).run(() -> rows.set(id, rows.amount(id) + 1));
            return describe(registry, "ledger-in-code", "padlock:ledger-in-code:" + id);
        }

        @Inject
        Rows rows;

        @Inject
        Locks locks;

        @Inject
        RedissonClient redisson;

        @Inject
        PadlockRuntime padlock;

        /** Adds what the live view (the Dev UI's) says of the key. */
        private String describe(MeterRegistry registry, String lock, String key) {
            String state = padlock.engine().liveLocks().held().stream()
                    .filter(held -> held.key().equals(key))
                    .map(LiveLocks.Held::state)
                    .findFirst()
                    .orElse("not held");
            return ReleaseAfterTransactionOnQuarkusTest.describe(
                            registry, lock, redisson.getKeys().countExists(key) == 1)
                    + ", live view: " + state;
        }
    }

    /** A registry the test can read; Quarkus's Micrometer extension gives Padlock's meters to it. */
    public static class Meters {
        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    static String describe(MeterRegistry registry, String lock, boolean held) {
        return "held in Redis " + held + ", holds ended "
                + registry.get("padlock.lock.held").tag("lock", lock).timer().count() + ", active "
                + registry.get("padlock.lock.active").tag("lock", lock).gauge().value();
    }

    @ApplicationScoped
    public static class Losses {
        final List<LockLost> seen = new CopyOnWriteArrayList<>();

        void lost(@Observes LockLost loss) {
            seen.add(loss);
        }

        /** Read through a method: the test holds a client proxy, whose own field stays empty. */
        public List<LockLost> seen() {
            return seen;
        }
    }

    @Inject
    Callers callers;

    @Inject
    Counter counter;

    @Inject
    Losses losses;

    @Inject
    RedissonClient redisson;

    @Inject
    SimpleMeterRegistry registry;

    private static final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void theNextCallerOfThisApplicationReadsTheCommittedRow() throws Exception {
        String id = newRow();
        assertThat(nextLocalCallerReads(id, "ledger"))
                .as("what the second caller read")
                .isEqualTo(1);
        assertThat(TestDatabase.amount(id)).as("both updates count").isEqualTo(2);
    }

    @Test
    void releasedOnReturnTheNextCallerOfThisApplicationReadsTheOldRowAndLosesTheUpdate() throws Exception {
        String id = newRow();
        assertThat(nextLocalCallerReads(id, "ledger-on-return"))
                .as("what the second caller read")
                .isZero();
        assertThat(TestDatabase.amount(id)).as("the first update is lost").isEqualTo(1);
    }

    /**
     * A key handed to the next local caller instead of unlocked (a chain may keep it for a minute here) is handed at
     * the commit, not at the return.
     */
    @Test
    void aKeyHandedOnPassesAtTheCommit() throws Exception {
        String id = newRow();
        assertThat(nextLocalCallerReads(id, "ledger-hand-off")).isEqualTo(1);
        assertThat(TestDatabase.amount(id)).isEqualTo(2);
    }

    @Test
    void anotherApplicationWaitingInRedisReadsTheCommittedRow() throws Exception {
        String id = newRow();
        assertThat(otherApplicationReads(id, "ledger")).isEqualTo(1);
        assertThat(TestDatabase.amount(id)).isEqualTo(2);
    }

    @Test
    void releasedOnReturnAnotherApplicationReadsTheOldRowAndLosesTheUpdate() throws Exception {
        String id = newRow();
        assertThat(otherApplicationReads(id, "ledger-on-return")).isZero();
        assertThat(TestDatabase.amount(id)).isEqualTo(1);
    }

    @Test
    void aRolledBackTransactionReleasesTheLock() {
        String id = newRow();
        assertThatThrownBy(() -> callers.incrementThenFail(id)).hasMessageContaining("the caller fails");
        assertThat(held("padlock:ledger:" + id))
                .as("released after the rollback")
                .isFalse();
        assertThat(TestDatabase.amount(id)).as("rolled back").isZero();
    }

    @Test
    void withoutATransactionTheLockIsReleasedOnReturn() {
        String id = newRow();
        counter.increment(id, () -> assertThat(held("padlock:ledger:" + id)).isTrue());
        assertThat(held("padlock:ledger:" + id)).isFalse();
        assertThat(TestDatabase.amount(id)).isEqualTo(1);
    }

    /**
     * The hold lasts until the commit, and the meters say so: between the locked call's return and the commit the key
     * is held, the lock counts as active, no hold has ended and the live view says it awaits the transaction; after
     * it, the hold ended once and nothing is active.
     * The same for a lock taken in code ({@code Locks}).
     */
    @Test
    void theHoldEndsAtTheCommitAndTheMetersSaySo() {
        String id = newRow();
        assertThat(callers.incrementThenLook(id, registry))
                .isEqualTo("held in Redis true, holds ended 0, active 1.0, live view: awaiting transaction");
        assertThat(describe(registry, "ledger-metered", held("padlock:ledger-metered:" + id)))
                .isEqualTo("held in Redis false, holds ended 1, active 0.0");

        assertThat(callers.incrementInCodeThenLook(id, registry))
                .isEqualTo("held in Redis true, holds ended 0, active 1.0, live view: awaiting transaction");
        assertThat(describe(registry, "ledger-in-code", held("padlock:ledger-in-code:" + id)))
                .isEqualTo("held in Redis false, holds ended 1, active 0.0");
        assertThat(TestDatabase.amount(id)).isEqualTo(2);
    }

    /**
     * A call of the same transaction on a key an earlier call of it still holds shares that hold: waiting for it
     * would wait for the transaction, which waits for the call (it failed after its 2 s wait before).
     */
    @Test
    void aSecondCallOnTheSameKeyInOneTransactionSharesTheHold() {
        String id = newRow();
        callers.incrementTwice(id);
        assertThat(TestDatabase.amount(id)).isEqualTo(2);
        assertThat(held("padlock:ledger-twice:" + id)).isFalse();
    }

    /**
     * A transaction that outlives the lease: the lock is reported lost when its deadline passes, and with {@code
     * on-lease-lost=throw} the transaction is rolled back instead of committing what the lock no longer protected.
     */
    @Test
    void aTransactionOutlivingTheLeaseIsRolledBackWhenLossesThrow() throws Exception {
        String id = newRow();
        assertThatThrownBy(() -> callers.incrementThenOutliveTheLease(id, true))
                .satisfies(e -> assertThat(causes(e)).anyMatch(RollbackException.class::isInstance));
        assertThat(TestDatabase.amount(id)).as("rolled back").isZero();
        assertThat(lossesOf("padlock:ledger-short:" + id))
                .singleElement()
                .extracting(LockLost::detectedBy)
                .isEqualTo(LockLost.Detection.DEADLINE);
    }

    @Test
    void aTransactionOutlivingTheLeaseIsReportedLostAndCommitsWhenLossesWarn() throws Exception {
        String id = newRow();
        callers.incrementThenOutliveTheLease(id, false);
        assertThat(TestDatabase.amount(id)).isEqualTo(1);
        assertThat(lossesOf("padlock:ledger-short-warn:" + id))
                .singleElement()
                .extracting(LockLost::detectedBy)
                .isEqualTo(LockLost.Detection.DEADLINE);
    }

    /**
     * The first caller's transaction increments the row under the lock, and waits up to 1 s after the locked call
     * returned before it commits; the second caller starts its transaction as soon as the first call returned. Returns
     * what the second caller read.
     */
    private int nextLocalCallerReads(String id, String lock) throws Exception {
        CountDownLatch returned = new CountDownLatch(1);
        CountDownLatch secondStarted = new CountDownLatch(1);
        CountDownLatch secondRead = new CountDownLatch(1);
        Future<Integer> first = pool.submit(() -> callers.incrementThenWait(lock, id, returned, secondRead));
        assertThat(returned.await(20, TimeUnit.SECONDS)).isTrue();
        Future<Integer> second = pool.submit(() -> callers.increment(lock, id, secondStarted, secondRead::countDown));
        assertThat(first.get(20, TimeUnit.SECONDS)).isZero();
        return second.get(20, TimeUnit.SECONDS);
    }

    /**
     * As {@link #nextLocalCallerReads}, the second caller another application: its own Redisson client, waiting in
     * Redis for the same key, and its own database connection.
     */
    private int otherApplicationReads(String id, String lock) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(TestRedis.uri());
        RedissonClient other = Redisson.create(config);
        try {
            CountDownLatch returned = new CountDownLatch(1);
            CountDownLatch otherRead = new CountDownLatch(1);
            Future<Integer> first = pool.submit(() -> callers.incrementThenWait(lock, id, returned, otherRead));
            assertThat(returned.await(20, TimeUnit.SECONDS)).isTrue();
            RLock key = other.getLock("padlock:" + lock + ":" + id);
            assertThat(key.tryLock(20, 30, TimeUnit.SECONDS)).isTrue();
            int seen;
            try (Connection c = TestDatabase.connect()) {
                seen = TestDatabase.amount(id);
                otherRead.countDown();
                try (PreparedStatement write = c.prepareStatement("UPDATE counter SET amount = ? WHERE id = ?")) {
                    write.setInt(1, seen + 1);
                    write.setString(2, id);
                    write.executeUpdate(); // waits for the first caller's row lock, if it has not committed yet
                }
            } finally {
                key.unlock();
            }
            assertThat(first.get(20, TimeUnit.SECONDS)).isZero();
            return seen;
        } finally {
            other.shutdown();
        }
    }

    /** The losses reported for {@code key}, once there is one (they reach observers on Padlock's event thread). */
    private List<LockLost> lossesOf(String key) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<LockLost> found = List.of();
        while (found.isEmpty() && System.nanoTime() - end < 0) {
            Thread.sleep(20);
            found = losses.seen().stream().filter(l -> l.lockKey().equals(key)).toList();
        }
        return found;
    }

    private boolean held(String key) {
        return redisson.getKeys().countExists(key) == 1;
    }

    private static String newRow() {
        String id = UUID.randomUUID().toString();
        TestDatabase.put(id, 0);
        return id;
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> chain = new java.util.ArrayList<>();
        for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
