package dev.padlock.cdi.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionManager;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A call that adopted a key handed on by the previous holder of its application asks Redis whether the hold is still
 * there; "not held" is a loss. When that answer comes after the call's transaction began to commit, a lock configured
 * {@code on-lease-lost=throw} must still roll the transaction back rather than commit what the lock did not protect
 * (found by reading in engine review 3): the commit waits for the call's checks in flight. The key is deleted while
 * the previous holder runs, after Redis confirmed its hold, and Redis is paused as it hands the key on, so the adopter's
 * check is answered only after its transaction began to commit. The control keeps the key: the same pause, and the
 * transaction commits.
 */
@ExtendWith(RedisExtension.class)
class HandOffCheckAtCommitTest {

    static final String KEY = "padlock:hand-off-commit";

    @ApplicationScoped
    public static class Work {
        @Locked(value = "hand-off-commit", waitTime = "20s")
        public void run(Runnable inside) {
            inside.run();
        }
    }

    @BeforeEach
    void reset(RedisServer redis) {
        redis.flushAll();
    }

    @Test
    void aHandOffFoundLostWhileTheTransactionCommitsRollsItBack(RedisServer redis) throws Exception {
        Object outcome = handOffIntoACommit(redis, true);

        assertThat(outcome).as("%s", outcome).isInstanceOf(RollbackException.class);
    }

    @Test
    void controlAHandOffFoundHeldLetsTheTransactionCommit(RedisServer redis) throws Exception {
        Object outcome = handOffIntoACommit(redis, false);

        assertThat(outcome).isEqualTo("committed");
    }

    /**
     * First holds the key; second and third queue behind it, third inside a transaction. First's release hands the
     * key to second, whose check (answered before first's call returns) confirms it; second deletes the key when
     * {@code lose}, pauses Redis, and returns, handing the key on to third, whose check waits out the pause. Third
     * returns at once and its transaction commits: returns "committed" or what the commit threw.
     */
    private static Object handOffIntoACommit(RedisServer redis, boolean lose) throws Exception {
        Map<String, String> config = Map.of(
                "padlock.redis.address", redis.uri(), "padlock.locks.\"hand-off-commit\".on-lease-lost", "throw");
        try (Deployment app = Deployment.start(config, Work.class, Narayana.Registry.class)) {
            Work work = app.bean(Work.class);
            PadlockEngine engine = app.bean(PadlockEngine.class);
            CountDownLatch firstInside = new CountDownLatch(1);
            CountDownLatch firstMayLeave = new CountDownLatch(1);
            CountDownLatch firstReturned = new CountDownLatch(1);
            CompletableFuture<Object> third = new CompletableFuture<>();

            Thread first = new Thread(() -> {
                work.run(() -> {
                    firstInside.countDown();
                    Waits.await(firstMayLeave);
                });
                firstReturned.countDown(); // its release waited for second's check
            });
            first.start();
            Waits.await(firstInside);
            Thread second = new Thread(() -> work.run(() -> {
                Waits.await(firstReturned);
                if (lose) {
                    redis.command("DEL", KEY);
                }
                redis.command("CLIENT", "PAUSE", "1500", "ALL");
            }));
            second.start();
            Waits.until(() -> waiting(engine) == 1, "second queued");
            Thread thirdThread = new Thread(() -> {
                TransactionManager tm = Narayana.transactionManager();
                try {
                    tm.begin();
                    work.run(() -> {});
                    tm.commit();
                    third.complete("committed");
                } catch (Throwable t) {
                    third.complete(t);
                } finally {
                    Narayana.endOnThisThread();
                }
            });
            thirdThread.start();
            Waits.until(() -> waiting(engine) == 2, "third queued");
            firstMayLeave.countDown();
            Object outcome = third.get(30, TimeUnit.SECONDS);
            first.join(TimeUnit.SECONDS.toMillis(30));
            second.join(TimeUnit.SECONDS.toMillis(30));
            return outcome;
        }
    }

    private static int waiting(PadlockEngine engine) {
        return engine.liveLocks().queues().stream()
                .filter(q -> q.key().equals(KEY))
                .mapToInt(LiveLocks.Queue::waiting)
                .sum();
    }
}
