package dev.padlock.cdi.failures;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockContext;
import dev.padlock.LockLostException;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.cdi.transactions.Narayana;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code on-lease-lost=interrupt}: a holder cut off from Redis by the proxy stops its work when it finds its lock lost
 * (at its deadline, before Redis can grant the key to anyone else), so that its work ends before another application
 * enters. Each case compares, on this JVM's monotonic clock, when the holder's work ended and when the other
 * application's method began; each control (the same body under {@code throw}) runs on past that moment to its end.
 */
@ExtendWith(RedisExtension.class)
class StopAtLossTest {

    /** How long each body would run if nothing stopped it: well past the 2 s lease the cut-off holder loses. */
    static final long BODY_MS = 8_000;

    /** Monotonic times by key: when the holder's work ended, and when the other application entered. */
    static final Map<String, Long> ENDED = new ConcurrentHashMap<>();

    static final Map<String, Long> ENTERED = new ConcurrentHashMap<>();

    private static final AtomicInteger KEYS = new AtomicInteger();

    /**
     * Each holder call on a thread of its own, as a caller's request would be: a pooled thread (the common pool) may
     * carry an interrupt left by earlier work into the next call, which then never acquires (seen once in eight runs of
     * this class, the control of the stage case ending at once; where the interrupt came from was not found).
     */
    static final Executor HOLDER_THREAD = task -> new Thread(task, "stop-at-loss-holder").start();

    /** Counts rows one by one for minutes: H2 checks for a cancel as it goes. */
    private static final String LONG_QUERY = "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 1000000000000) WHERE MOD(X, 7) = 8";

    @ApplicationScoped
    public static class Work {
        @Inject
        LockContext lock;

        @Inject
        Locks locks;

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public String sleep(String key) throws InterruptedException {
            try {
                Thread.sleep(BODY_MS);
                return "slept";
            } finally {
                ENDED.put(key, System.nanoTime());
            }
        }

        /** The same sleep through the programmatic front door: the same key as {@link #sleep}, the same settings. */
        public String sleepThroughLocks(String key) throws Exception {
            return locks.on("stop", key).waitTime(Duration.ofSeconds(30)).call(() -> {
                try {
                    Thread.sleep(BODY_MS);
                    return "slept";
                } finally {
                    ENDED.put(key, System.nanoTime());
                }
            });
        }

        /** A statement that runs until its query timeout ({@link #BODY_MS}), or until the loss cancels it. */
        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public String query(String key, String url, boolean cancelAtLoss) throws SQLException {
            try (Connection connection = DriverManager.getConnection(url);
                    PreparedStatement count = connection.prepareStatement(LONG_QUERY);
                    LockContext.LossRegistration stop = cancelAtLoss ? lock.onLoss(count::cancel) : () -> {}) {
                count.setQueryTimeout((int) (BODY_MS / 1000));
                count.executeQuery();
                return "counted";
            } finally {
                ENDED.put(key, System.nanoTime());
            }
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public CompletionStage<String> stage(String key) {
            CompletableFuture<String> later =
                    new CompletableFuture<String>().completeOnTimeout("later", BODY_MS, MILLISECONDS);
            later.whenComplete((value, failure) -> ENDED.put(key, System.nanoTime()));
            return later;
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public Uni<String> later(String key) {
            return Uni.createFrom()
                    .item("later")
                    .onItem()
                    .delayIt()
                    .by(Duration.ofMillis(BODY_MS))
                    .onTermination()
                    .invoke(() -> ENDED.put(key, System.nanoTime()));
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public Multi<Long> ticks(String key) {
            return Multi.createFrom()
                    .ticks()
                    .every(Duration.ofMillis(100))
                    .select()
                    .first((int) (BODY_MS / 100))
                    .onTermination()
                    .invoke(() -> ENDED.put(key, System.nanoTime()));
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public Multi<Integer> few(String key) {
            return Multi.createFrom().items(1, 2, 3);
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public Uni<String> now(String key) {
            return Uni.createFrom().item("now");
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public CompletionStage<String> done(String key) {
            return CompletableFuture.completedFuture("done");
        }

        @Locked(value = "stop", key = "{0}", waitTime = "30s")
        public String enter(String key) {
            ENTERED.put(key, System.nanoTime());
            return "entered";
        }
    }

    /** What the holder's caller got, and whether its thread was left interrupted after the call. */
    record Outcome(String key, Object value, Throwable failure, boolean leftInterrupted) {

        /** How long before the other application entered the holder's work ended (negative: after). */
        long endedAheadMillis() {
            return TimeUnit.NANOSECONDS.toMillis(ENTERED.get(key) - ENDED.get(key));
        }

        Throwable[] suppressed() {
            return failure == null ? new Throwable[0] : failure.getSuppressed();
        }
    }

    @FunctionalInterface
    interface HolderCall {
        Object run(Work holder, String key) throws Exception;
    }

    @Test
    void aSleepingBodyIsInterruptedAtTheLossAndEndsBeforeAnotherApplicationEnters(RedisServer redis, RedisProxy proxy)
            throws Exception {
        assertASleepIsStoppedWhereItsControlRunsOn(redis, proxy, Work::sleep);
    }

    /** {@code locks.on("stop", key).call(...)} reads {@code padlock.locks."stop".on-lease-lost} as the method does. */
    @Test
    void aProgrammaticCallIsStoppedAsAnAnnotatedOneIs(RedisServer redis, RedisProxy proxy) throws Exception {
        assertASleepIsStoppedWhereItsControlRunsOn(redis, proxy, Work::sleepThroughLocks);
    }

    /**
     * Under {@code interrupt} the sleeping {@code body} ends before the other application enters, its caller gets the
     * loss with the body's {@link InterruptedException} in it, and its thread is not left interrupted; under {@code
     * throw} (the control) it runs on past that moment.
     */
    private static void assertASleepIsStoppedWhereItsControlRunsOn(RedisServer redis, RedisProxy proxy, HolderCall body)
            throws Exception {
        Outcome stopped = run(redis, proxy, "interrupt", body, HOLDER_THREAD);
        assertThat(stopped.failure()).isInstanceOf(LockLostException.class);
        assertThat(stopped.suppressed())
                .as("the body's own failure, suppressed into the loss")
                .hasOnlyElementsOfType(InterruptedException.class)
                .hasSize(1);
        assertThat(stopped.leftInterrupted())
                .as("the caller's thread interrupted after the call")
                .isFalse();
        assertThat(stopped.endedAheadMillis())
                .as("ms the body ended before the other application entered")
                .isPositive();

        Outcome control = run(redis, proxy, "throw", body, HOLDER_THREAD);
        assertThat(control.failure()).isInstanceOf(LockLostException.class);
        assertThat(control.suppressed()).isEmpty();
        assertThat(control.endedAheadMillis())
                .as("the control's body runs on after the other application entered")
                .isNegative();
    }

    /** Nothing lost, nothing changes: each result type ends as it would under warn, and the thread is not interrupted. */
    @Test
    void withNothingLostTheInterruptPolicyLeavesEveryResultAlone(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(config(redis.uri(), "interrupt"), Work.class)) {
            Work work = app.bean(Work.class);
            assertThat(work.few("few").collect().asList().await().atMost(Duration.ofSeconds(30)))
                    .containsExactly(1, 2, 3);
            assertThat(work.now("now").await().atMost(Duration.ofSeconds(30))).isEqualTo("now");
            assertThat(work.done("done").toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .isEqualTo("done");
            assertThat(work.enter("enter")).isEqualTo("entered");
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
            assertThat(redis.command("KEYS", "padlock:stop:*"))
                    .as("every key released")
                    .isEqualTo(List.of());
        }
    }

    /**
     * The other forced loss: Redis restarted without its data. The holder sees the restart (or its next renewal finds
     * the key gone) and its body is interrupted; the control's body runs to its end. Nobody can be kept out here: the
     * key is gone the moment Redis restarts.
     */
    @Test
    void aBodyIsInterruptedWhenRedisRestartsWithoutItsData() throws Exception {
        assertThat(stoppedByARestart("interrupt").getSuppressed())
                .hasOnlyElementsOfType(InterruptedException.class)
                .hasSize(1);
        assertThat(stoppedByARestart("throw").getSuppressed())
                .as("the control ran to its end")
                .isEmpty();
    }

    private static Throwable stoppedByARestart(String policy) throws Exception {
        String key = policy + "-" + KEYS.incrementAndGet();
        try (RedisServer redis = Redis.startServer();
                Deployment app = Deployment.start(config(redis.uri(), policy), Work.class)) {
            Work holder = app.bean(Work.class);
            CompletableFuture<Void> holding = CompletableFuture.runAsync(
                    () -> {
                        try {
                            holder.sleep(key);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException("not suppressed into the loss", e);
                        }
                    },
                    HOLDER_THREAD);
            Waits.untilHeld(app, "padlock:stop:" + key);
            long restarted = System.nanoTime();
            redis.restart();
            Throwable failure = holding.handle((done, thrown) -> thrown).get(60, TimeUnit.SECONDS);
            System.out.printf(
                    "StopAtLossTest %s: the holder's work ended %d ms after Redis restarted (a watchdog renewal every"
                            + " 667 ms)%n",
                    key, TimeUnit.NANOSECONDS.toMillis(ENDED.get(key) - restarted));
            assertThat(failure).hasCauseInstanceOf(LockLostException.class);
            return failure.getCause();
        }
    }

    @Test
    void theCallersTransactionIsMarkedRollbackOnlyAsTheStoppedBodyReturns(RedisServer redis, RedisProxy proxy)
            throws Exception {
        HolderCall inTransaction = (holder, key) -> {
            TransactionManager transactions = Narayana.transactionManager();
            transactions.begin();
            try {
                holder.sleep(key);
                return "not lost";
            } catch (LockLostException e) {
                return transactions.getStatus(); // a caller that catches the loss, and would commit
            } finally {
                Narayana.endOnThisThread();
            }
        };
        Outcome stopped =
                run(redis, proxy, "interrupt", inTransaction, HOLDER_THREAD, Work.class, Narayana.Registry.class);
        assertThat(stopped.value()).as("the caller's transaction").isEqualTo(Status.STATUS_MARKED_ROLLBACK);
        assertThat(stopped.endedAheadMillis()).isPositive();

        Outcome control = run(redis, proxy, "throw", inTransaction, HOLDER_THREAD, Work.class, Narayana.Registry.class);
        assertThat(control.value())
                .as("under throw, the transaction is rolled back only as it completes")
                .isEqualTo(Status.STATUS_ACTIVE);
    }

    @Test
    void aJdbcStatementIsCancelledAtTheLossThroughLockContextOnLoss(RedisServer redis, RedisProxy proxy)
            throws Exception {
        Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        try {
            String url = "jdbc:h2:tcp://localhost:" + h2.getPort() + "/mem:stop";
            Outcome stopped =
                    run(redis, proxy, "interrupt", (holder, key) -> holder.query(key, url, true), HOLDER_THREAD);
            assertThat(stopped.failure()).isInstanceOf(LockLostException.class);
            assertThat(stopped.suppressed())
                    .as("the statement's failure: cancelled")
                    .hasOnlyElementsOfType(SQLException.class)
                    .hasSize(1);
            assertThat(stopped.endedAheadMillis())
                    .as("ms the statement ended before the other application entered")
                    .isPositive();

            Outcome control =
                    run(redis, proxy, "interrupt", (holder, key) -> holder.query(key, url, false), HOLDER_THREAD);
            assertThat(control.endedAheadMillis())
                    .as("without onLoss an interrupt does not reach a statement waiting for its database: it runs on"
                            + " after the other application entered")
                    .isNegative();
        } finally {
            h2.stop();
        }
    }

    @Test
    void aCompletionStageIsCancelledAtTheLoss(RedisServer redis, RedisProxy proxy) throws Exception {
        HolderCall stage =
                (holder, key) -> holder.stage(key).toCompletableFuture().get(60, TimeUnit.SECONDS);
        Outcome stopped = run(redis, proxy, "interrupt", stage, HOLDER_THREAD);
        assertThat(stopped.failure()).isInstanceOf(ExecutionException.class);
        assertThat(stopped.failure().getCause()).isInstanceOf(LockLostException.class);
        assertThat(stopped.failure().getCause().getSuppressed())
                .as("nothing of the cancellation")
                .isEmpty();
        assertThat(stopped.endedAheadMillis())
                .as("ms the stage was cancelled before the other application entered")
                .isPositive();

        Outcome control = run(redis, proxy, "throw", stage, HOLDER_THREAD);
        assertThat(control.failure().getCause()).isInstanceOf(LockLostException.class);
        assertThat(control.endedAheadMillis()).isNegative();
    }

    @Test
    void aUniIsCancelledAtTheLoss(RedisServer redis, RedisProxy proxy) throws Exception {
        HolderCall later = (holder, key) -> holder.later(key).await().atMost(Duration.ofSeconds(60));
        Outcome stopped = run(redis, proxy, "interrupt", later, HOLDER_THREAD);
        assertThat(stopped.failure()).isInstanceOf(LockLostException.class);
        assertThat(stopped.suppressed())
                .as("nothing of the cancellation Padlock made")
                .isEmpty();
        assertThat(stopped.endedAheadMillis())
                .as("ms the Uni was cancelled before the other application entered")
                .isPositive();

        Outcome control = run(redis, proxy, "throw", later, HOLDER_THREAD);
        assertThat(control.failure()).isInstanceOf(LockLostException.class);
        assertThat(control.endedAheadMillis()).isNegative();
    }

    @Test
    void aMultiIsCancelledAtTheLoss(RedisServer redis, RedisProxy proxy) throws Exception {
        HolderCall ticks =
                (holder, key) -> holder.ticks(key).collect().asList().await().atMost(Duration.ofSeconds(60));
        Outcome stopped = run(redis, proxy, "interrupt", ticks, HOLDER_THREAD);
        assertThat(stopped.failure()).isInstanceOf(LockLostException.class);
        assertThat(stopped.endedAheadMillis())
                .as("ms the stream was cancelled before the other application entered")
                .isPositive();

        Outcome control = run(redis, proxy, "throw", ticks, HOLDER_THREAD);
        assertThat(control.failure()).isInstanceOf(LockLostException.class);
        assertThat(control.endedAheadMillis()).isNegative();
    }

    /**
     * The holder application (through the proxy, with {@code policy}) calls {@code call} on {@code thread}; once it
     * holds its key, the proxy cuts it off, and the other application (straight to Redis) enters as soon as Redis lets
     * it. Returns what the holder's caller got.
     */
    static Outcome run(RedisServer redis, RedisProxy proxy, String policy, HolderCall call, Executor thread)
            throws Exception {
        return run(redis, proxy, policy, call, thread, Work.class);
    }

    /** As above, with the holder application's beans. */
    static Outcome run(
            RedisServer redis, RedisProxy proxy, String policy, HolderCall call, Executor thread, Class<?>... beans)
            throws Exception {
        String key = policy + "-" + KEYS.incrementAndGet();
        try (Deployment holderApp = Deployment.start(config(proxy.uri(), policy), beans);
                Deployment otherApp = Deployment.start("other", config(redis.uri(), "warn"), Work.class)) {
            Work holder = holderApp.bean(Work.class);
            CompletableFuture<Outcome> holding = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            Object value = call.run(holder, key);
                            return new Outcome(key, value, null, Thread.interrupted());
                        } catch (Throwable failure) {
                            return new Outcome(key, null, failure, Thread.interrupted());
                        }
                    },
                    thread);
            long cut;
            try {
                Waits.untilHeld(holderApp, "padlock:stop:" + key);
                cut = System.nanoTime();
                proxy.cut();
                assertThat(otherApp.bean(Work.class).enter(key)).isEqualTo("entered");
            } finally {
                proxy.restore();
            }
            Outcome outcome = holding.get(60, TimeUnit.SECONDS);
            Waits.until(
                    () -> ENDED.containsKey(key),
                    "the holder's work ended (its caller got " + outcome.value() + ", " + outcome.failure() + ")");
            System.out.printf(
                    "StopAtLossTest %s: the holder's work ended %d ms after the cut (2 s lease), %d ms before the other"
                            + " application entered; the caller got %s%s%n",
                    key,
                    TimeUnit.NANOSECONDS.toMillis(ENDED.get(key) - cut),
                    outcome.endedAheadMillis(),
                    outcome.failure() != null ? outcome.failure().getClass().getSimpleName() : outcome.value(),
                    outcome.suppressed().length == 0 ? "" : " with " + Arrays.toString(outcome.suppressed()));
            return outcome;
        }
    }

    private static Map<String, String> config(String address, String policy) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", address);
        config.put("padlock.watchdog-timeout", "2s");
        config.put("padlock.locks.\"stop\".on-lease-lost", policy);
        // The door held for 1 s past the lease: the time a stopped holder's work has to end before anyone enters.
        // Without it the lead is the deadline's margin (1 % of the lease + 20 ms), too little on a busy machine.
        config.put("padlock.locks.\"stop\".lock-delay", "1s");
        return config;
    }
}
