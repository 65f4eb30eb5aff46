package dev.padlock.core.turns;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The queue in front of Redis, on its own: who gets the turn, in which order, and that none is ever lost. */
class LocalTurnsTest {

    private static final long LONG = TimeUnit.MINUTES.toMillis(5);

    private final LocalTurns<String> turns = new LocalTurns<>();

    @Test
    void aFreeKeyIsGrantedAtOnceAndForgottenWhenPassed() {
        assertThat(turns.await("a", 0)).isCompletedWithValue(true);
        assertThat(turns.await("b", LONG)).isCompletedWithValue(true);
        assertThat(turns.keysHeld()).isEqualTo(2);

        turns.pass("a");
        turns.pass("b");

        assertThat(turns.keysHeld()).isZero();
        assertThat(turns.await("a", 0)).isCompletedWithValue(true);
    }

    @Test
    void aTakenKeyRefusesACallerThatDoesNotWait() {
        turns.await("a", 0);

        assertThat(turns.await("a", 0)).isCompletedWithValue(false);
    }

    @Test
    void waitersGetTheTurnOneAtATimeInArrivalOrder() {
        turns.await("a", LONG);
        List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiters.add(turns.await("a", LONG));
        }
        assertThat(waiters).noneMatch(CompletableFuture::isDone);

        for (int i = 0; i < 5; i++) {
            turns.pass("a");
            for (int j = 0; j < 5; j++) {
                assertThat(waiters.get(j).isDone())
                        .as("waiter %d after %d passes", j, i + 1)
                        .isEqualTo(j <= i);
            }
        }
        turns.pass("a");
        assertThat(turns.keysHeld()).isZero();
    }

    @Test
    void aWaiterThatGaveUpIsSkipped() {
        turns.await("a", LONG);
        CompletableFuture<Boolean> cancelled = turns.await("a", LONG);
        CompletableFuture<Boolean> next = turns.await("a", LONG);

        cancelled.cancel(false);
        turns.pass("a");

        assertThat(next).isCompletedWithValue(true);
        turns.pass("a");
        assertThat(turns.keysHeld()).isZero();
    }

    @Test
    void aWaiterWhoseWaitEndsGetsFalseAndLeavesTheQueue() throws Exception {
        turns.await("a", LONG);
        CompletableFuture<Boolean> brief = turns.await("a", 50);

        assertThat(brief.get(10, TimeUnit.SECONDS)).isFalse();
        turns.pass("a");

        assertThat(turns.keysHeld()).as("nobody left waiting").isZero();
    }

    @Test
    void manyThreadsNeverHoldOneKeyTogetherAndNoTurnIsLost() throws Exception {
        int threads = 8;
        int rounds = 2_000;
        int[] holders = {0};
        int[] overlaps = {0};
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    // every third caller gives up quickly, so passes race with timeouts
                    boolean mine = turns.await("k", i % 3 == 0 ? 1 : LONG).join();
                    if (!mine) {
                        continue;
                    }
                    synchronized (holders) {
                        if (++holders[0] > 1) {
                            overlaps[0]++;
                        }
                    }
                    Thread.onSpinWait();
                    synchronized (holders) {
                        holders[0]--;
                    }
                    turns.pass("k");
                }
            });
            all.add(thread);
            thread.start();
        }
        for (Thread thread : all) {
            thread.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(thread.isAlive())
                    .as("a caller is stuck: a turn was lost")
                    .isFalse();
        }
        assertThat(overlaps[0]).isZero();
        assertThat(turns.keysHeld()).isZero();
    }
}
