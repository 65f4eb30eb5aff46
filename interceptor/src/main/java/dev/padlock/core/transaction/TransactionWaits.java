package dev.padlock.core.transaction;

import dev.padlock.core.call.LockedCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which keys this application's callers' transactions keep until they complete ({@code
 * ReleasePolicy.AFTER_TRANSACTION}), and which key a call of each waits for now. Two transactions that take two keys in
 * opposite orders would each wait for a key the other keeps until it completes, which it cannot do before it gets the
 * key it waits for: both would wait their whole wait, then fail. The wait that would close such a cycle fails at once
 * instead, so the other transaction goes on once this one ends. Only this application's transactions are seen; a cycle
 * through another application's is left to the waits' ends. One per engine, kept by {@link ReleaseAfterTransaction}.
 */
final class TransactionWaits {

    /** Guarded by this: the transaction that keeps each key until it completes. */
    private final Map<String, Object> keptBy = new HashMap<>();

    /** Guarded by this: the call of each transaction that waits for a key now, and that key. */
    private final Map<Object, Waiter> waiting = new HashMap<>();

    private record Waiter(LockedCall call, String key) {}

    /** {@code call} ended inside {@code transaction} and keeps the locks it took itself until it completes. */
    synchronized void keep(Object transaction, LockedCall call) {
        for (int i = 0; i < call.takenCount(); i++) {
            if (!call.sharesHold(i)) {
                keptBy.put(call.locks[i].getName(), transaction);
            }
        }
    }

    /** {@code transaction} completed: the keys {@code call} kept for it are released now. */
    synchronized void release(Object transaction, LockedCall call) {
        for (int i = 0; i < call.takenCount(); i++) {
            keptBy.remove(call.locks[i].getName(), transaction);
        }
    }

    /**
     * {@code call} of {@code transaction} is about to wait for {@code key}. Returns {@code null} and records the wait
     * when it can end; else the keys of the cycle it would close, starting with {@code key}: each kept by a
     * transaction that waits for the next, the last kept by {@code transaction} itself.
     */
    synchronized List<String> waitFor(Object transaction, LockedCall call, String key) {
        List<String> path = new ArrayList<>(2);
        path.add(key);
        Set<Object> seen = new HashSet<>();
        Object holder = keptBy.get(key);
        while (holder != null && !holder.equals(transaction) && seen.add(holder)) {
            Waiter next = waiting.get(holder);
            if (next == null) {
                break;
            }
            path.add(next.key());
            holder = keptBy.get(next.key());
        }
        if (path.size() > 1 && transaction.equals(holder)) {
            return path;
        }
        waiting.put(transaction, new Waiter(call, key));
        return null;
    }

    /** {@code call}'s acquisition ended: it waits for nothing any more. */
    synchronized void waited(Object transaction, LockedCall call) {
        Waiter waiter = waiting.get(transaction);
        if (waiter != null && waiter.call() == call) {
            waiting.remove(transaction);
        }
    }
}
