package dev.padlock.benchmarks;

import dev.padlock.LockType;
import java.util.Locale;

/**
 * One line of the table: the same critical section run under Padlock and under raw Redisson.
 *
 * @param type the Redisson lock both sides take
 * @param lease how both sides bound the lock's life
 * @param contention whether each thread locks its own key or all threads lock one key
 * @param threads how many platform threads call at once
 */
record Row(LockType type, Lease lease, Contention contention, int threads) {

    /** How long a lock lives, and the raw call that matches it. */
    enum Lease {
        /** {@code @Locked} without leaseTime against {@code lock(); unlock();}: renewed while held. */
        WATCHDOG("watchdog", "lock()"),
        /** {@code @Locked(leaseTime = "30s")} against {@code tryLock(30s, 30s); unlock();}. */
        FIXED("30s lease", "tryLock(wait, lease)");

        final String label;
        final String rawCall;

        Lease(String label, String rawCall) {
            this.label = label;
            this.rawCall = rawCall;
        }
    }

    enum Contention {
        /** Each thread locks a key of its own: what Padlock adds shows up undiluted. */
        OWN_KEYS("own keys"),
        /** Every thread locks the same key: measures hand-over between waiters. */
        ONE_KEY("one key");

        final String label;

        Contention(String label) {
            this.label = label;
        }
    }

    /** The rows the goal is about (Padlock/raw >= 0.97, at most +5 us CPU, no extra command). */
    boolean uncontended() {
        return contention == Contention.OWN_KEYS;
    }

    /** Whether two holders of this row's key must never overlap (readers share a read lock). */
    boolean exclusive() {
        return type != LockType.READ;
    }

    String describe() {
        return type.name().toLowerCase(Locale.ROOT) + ", " + lease.label + ", " + contention.label + ", " + threads
                + (threads == 1 ? " thread" : " threads");
    }
}
