package dev.padlock.cdi.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A later call of a transaction shares the hold of an earlier call of it that keeps its lock until the transaction
 * completes. When the transaction completes while the later call still runs (rolled back after its timeout by the
 * transaction manager's reaper, on the reaper's thread; or committed by the later call itself, bean-managed), the
 * earlier call's lock must not be released under the later one: another application would enter beside it, and
 * nobody would be told (engine review 3, F-1). The hold is released when the last call sharing it ends. The control
 * releases on return: the later call takes a lock of its own, and the other application waits for it.
 */
@ExtendWith(RedisExtension.class)
class SharedHoldOfACompletedTransactionTest {

    /** Who was inside the room when each caller entered it. */
    static final Map<String, List<String>> ENTRIES = new ConcurrentHashMap<>();

    static final Set<String> INSIDE = new CopyOnWriteArraySet<>();

    @ApplicationScoped
    public static class Room {
        @Locked(value = "shared-hold", key = "{room}", waitTime = "20s")
        public void enter(String room, String who, Runnable stay) {
            ENTRIES.put(who, List.copyOf(INSIDE));
            INSIDE.add(who);
            try {
                stay.run();
            } finally {
                INSIDE.remove(who);
            }
        }
    }

    @BeforeEach
    void reset(RedisServer redis) {
        redis.flushAll();
        ENTRIES.clear();
        INSIDE.clear();
    }

    @Test
    void aTransactionTimedOutUnderASharingCallDoesNotLetAnotherApplicationInBesideIt(RedisServer redis)
            throws Exception {
        assertNobodyEntersBesideTheSharingCall(redis, Map.of(), Completion.TIMEOUT);
    }

    @Test
    void aCommitInsideASharingCallDoesNotLetAnotherApplicationInBesideIt(RedisServer redis) throws Exception {
        assertNobodyEntersBesideTheSharingCall(redis, Map.of(), Completion.COMMIT_INSIDE);
    }

    @Test
    void controlReleasedOnReturnTheSecondCallHoldsItsOwnLockAndBWaits(RedisServer redis) throws Exception {
        assertNobodyEntersBesideTheSharingCall(
                redis, Map.of("padlock.locks.\"shared-hold\".release", "on-return"), Completion.TIMEOUT);
    }

    enum Completion {
        /** Narayana's reaper rolls the transaction back after its 1 s timeout, on its own thread. */
        TIMEOUT,
        /** The second call commits the transaction itself, as bean-managed code does. */
        COMMIT_INSIDE
    }

    /**
     * In one transaction of application A, x1 returns at once (its lock kept for the transaction) and x2, on the same
     * key, stays in the room. The transaction completes while x2 is inside; then application B calls for the same
     * key. x2 stays until B entered, or for 2 s: B must not have entered beside x2.
     */
    private static void assertNobodyEntersBesideTheSharingCall(
            RedisServer redis, Map<String, String> settings, Completion completion) throws Exception {
        Map<String, String> config = new HashMap<>(settings);
        config.put("padlock.redis.address", redis.uri());
        TransactionManager tm = Narayana.transactionManager();
        try (Deployment a = Deployment.start("a", config, Room.class, Narayana.Registry.class);
                Deployment b = Deployment.start("b", config, Room.class)) {
            Room roomA = a.bean(Room.class);
            Room roomB = b.bean(Room.class);
            CompletableFuture<Void> bEntered = new CompletableFuture<>();
            tm.setTransactionTimeout(completion == Completion.TIMEOUT ? 1 : 60);
            tm.begin();
            Transaction transaction = tm.getTransaction();
            try {
                roomA.enter("r", "x1", () -> {});
                roomA.enter("r", "x2", () -> {
                    if (completion == Completion.TIMEOUT) {
                        Waits.until(
                                () -> Narayana.status(transaction) == Status.STATUS_ROLLEDBACK,
                                "the transaction rolled back by the reaper");
                    } else {
                        try {
                            tm.commit();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    Thread other = new Thread(() -> {
                        try {
                            roomB.enter("r", "b", () -> {});
                            bEntered.complete(null);
                        } catch (Throwable t) {
                            bEntered.completeExceptionally(t);
                        }
                    });
                    other.start();
                    // B enters beside x2 at once if the lock was released, else only once x2 left
                    try {
                        bEntered.get(2, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        // B waits for the key (or failed: checked below); x2 leaves now
                    }
                });
            } finally {
                Narayana.endOnThisThread();
                tm.setTransactionTimeout(0);
            }
            bEntered.get(30, TimeUnit.SECONDS);
            assertThat(ENTRIES)
                    .as("who was inside as each entered: %s", ENTRIES)
                    .containsEntry("x1", List.of())
                    .containsEntry("x2", List.of())
                    .containsEntry("b", List.of());
            Waits.until(() -> (Long) redis.command("EXISTS", "padlock:shared-hold:r") == 0, "the key released");
        }
    }
}
