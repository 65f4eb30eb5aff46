package dev.padlock.core.turns;

import dev.padlock.core.events.LiveLocks;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Per lock key, lets one call of this application at a time ask Redis for an exclusive lock; the application's
 * other calls for that key wait here, in arrival order, and the next one asks Redis once the lock is released.
 *
 * <p>Why: calls of one JVM that all wait in Redisson for the same key are each woken by every unlock message and
 * mostly fail again (in Redisson 4.7.0 an asynchronous waiter is even woken twice per message, see
 * dev.padlock.core.redis.Acquisition}); each failed attempt is a lock script on the server. Queued here, a contended call usually costs
 * what an uncontended one does: one lock script, one unlock script. Calls of other JVMs still contend in Redis
 * as before, where at most one waiter per key and application now takes part.
 *
 * <p>Only for exclusive, non-fair locks: readers must not queue behind each other, and a fair lock's Redis queue
 * must keep every waiter's place. A caller that holds the key already (a nested call on the same thread)
 * re-enters without a turn: see {@code LockedCall.queuesFor}.
 *
 * <p>A turn is held from when it is granted until the call's lock for that key has been released (or was never
 * taken); {@link #pass} then grants it to the next waiter still waiting. A key with no holder has no entry.
 */
public final class LocalTurns<H> {

    private static final CompletableFuture<Boolean> GRANTED = CompletableFuture.completedFuture(true);
    private static final CompletableFuture<Boolean> REFUSED = CompletableFuture.completedFuture(false);

    /** The calls waiting for each key whose turn is held; an empty queue: held, nobody waiting. */
    private final ConcurrentHashMap<String, Waiters<H>> waiting = new ConcurrentHashMap<>();

    /**
     * The callers waiting for one key, in arrival order; changed only under the map's lock for the key, and its
     * {@link #count} with it, so that a finishing holder can see without that lock whether anyone waits.
     */
    private static final class Waiters<H> extends ArrayDeque<Turn<H>> {
        volatile int count;

        Waiters() {
            super(0);
        }

        void join(Turn<H> turn) {
            add(turn);
            count = size();
        }

        Turn<H> next() {
            Turn<H> turn = poll();
            count = size();
            return turn;
        }

        void leave(Turn<H> turn) {
            remove(turn);
            count = size();
        }
    }

    /**
     * A waiting caller's turn: granted (true) or not; when granted by {@link #handOff}, with the Redis hold it is
     * handed (written before the turn completes, so the caller reads it once it sees the turn granted).
     */
    private static final class Turn<H> extends CompletableFuture<Boolean> {
        volatile H hold;
        /** How long the caller gives way before asking Redis ({@link #pass(String, long)}); written before completing. */
        volatile long yieldNanos;
    }

    /**
     * The caller's turn at {@code key}: completes with true when it is granted (at once when no other call holds
     * it), or with false when {@code waitMillis} passes first ({@code 0}: do not wait). A caller that stops
     * waiting cancels the result; if the turn was granted meanwhile, the caller must {@link #pass} it.
     */
    public CompletableFuture<Boolean> await(String key, long waitMillis) {
        if (waiting.putIfAbsent(key, new Waiters<>()) == null) {
            return GRANTED;
        }
        if (waitMillis <= 0) {
            // The key is taken in this application, so Redis would say the same (its holder may be releasing it
            // just now: in Redis too a single attempt can land just before an unlock).
            return REFUSED;
        }
        Turn<H> turn = new Turn<>();
        boolean[] granted = {false};
        waiting.compute(key, (k, queue) -> {
            if (queue == null) {
                // the holder passed on and nobody waited: this caller's turn
                granted[0] = true;
                return new Waiters<>();
            }
            queue.join(turn);
            return queue;
        });
        if (granted[0]) {
            return GRANTED;
        }
        turn.completeOnTimeout(false, waitMillis, TimeUnit.MILLISECONDS);
        turn.whenComplete((mine, failure) -> {
            if (!Boolean.TRUE.equals(mine)) {
                forget(key, turn); // timed out or cancelled: leave the queue now rather than when the turn comes
            }
        });
        return turn;
    }

    /** The caller is done with its turn at {@code key}: the first call still waiting gets it. */
    public void pass(String key) {
        pass(key, 0);
    }

    /**
     * As {@link #pass(String)}, and the caller that gets the turn waits {@code yieldNanos} before it asks Redis: the
     * key was just unlocked there while callers of other applications wait for it, and this application's next
     * caller, queued here and ready at once, would otherwise usually win it straight back.
     */
    public void pass(String key, long yieldNanos) {
        while (true) {
            @SuppressWarnings("unchecked")
            Turn<H>[] next = new Turn[1];
            waiting.computeIfPresent(key, (k, queue) -> {
                next[0] = queue.next();
                return next[0] == null ? null : queue;
            });
            // Completed outside the map, so that the next caller's continuation may use it at once.
            if (next[0] != null) {
                next[0].yieldNanos = yieldNanos;
            }
            if (next[0] == null || next[0].complete(true)) {
                return;
            }
            // it stopped waiting (timeout, cancellation) just now: the turn goes on to the one after it
        }
    }

    /**
     * The caller is done with its turn at {@code key} and hands the next call still waiting both the turn and the key's
     * Redis {@code hold}; false when nobody waits, and the caller keeps its turn (it then unlocks the key in Redis and
     * {@link #pass passes} the turn as usual).
     */
    public boolean handOff(String key, H hold) {
        while (true) {
            @SuppressWarnings("unchecked")
            Turn<H>[] next = new Turn[1];
            waiting.computeIfPresent(key, (k, queue) -> {
                next[0] = queue.next();
                return queue; // still held: by the next caller, or by this one when nobody waits
            });
            if (next[0] == null) {
                return false;
            }
            next[0].hold = hold;
            if (next[0].complete(true)) {
                return true;
            }
            next[0].hold = null; // it stopped waiting just now: the hold goes on to the one after it
        }
    }

    /**
     * Whether callers wait for {@code key} now: read without the map's lock, so only a hint for a holder deciding
     * whether to prepare a hand-off ({@link #handOff} decides under the lock). Either wrong answer is safe: a missed
     * waiter gets its turn by {@link #pass} and asks Redis; a waiter gone meanwhile makes the hand-off find nobody.
     */
    public boolean hasWaiters(String key) {
        Waiters queue = waiting.get(key);
        return queue != null && queue.count > 0;
    }

    /** The Redis hold handed with a granted {@code turn} by {@link #handOff}, or {@code null}: ask Redis. */
    @SuppressWarnings("unchecked")
    public static <H> H handedOver(CompletableFuture<Boolean> turn) {
        return turn instanceof Turn<?> t ? (H) t.hold : null;
    }

    /** How long the caller granted {@code turn} gives way before asking Redis (see {@link #pass(String, long)}). */
    public static long yieldOf(CompletableFuture<Boolean> turn) {
        return turn instanceof Turn<?> t ? t.yieldNanos : 0;
    }

    private void forget(String key, Turn<H> turn) {
        waiting.computeIfPresent(key, (k, queue) -> {
            queue.leave(turn);
            return queue;
        });
    }

    /**
     * The keys whose turn is held while callers wait for it, with how many wait (those that just gave up may still
     * count). Each queue is read under the map's lock for its key; a live view's picture, not a consistent one.
     */
    public List<LiveLocks.Queue> queues() {
        List<LiveLocks.Queue> queues = new ArrayList<>();
        for (String key : waiting.keySet()) {
            waiting.computeIfPresent(key, (k, queue) -> {
                if (!queue.isEmpty()) {
                    queues.add(new LiveLocks.Queue(k, queue.size()));
                }
                return queue;
            });
        }
        queues.sort(Comparator.comparing(LiveLocks.Queue::key));
        return queues;
    }

    /** How many keys have a turn held; for tests. */
    public int keysHeld() {
        return waiting.size();
    }
}
