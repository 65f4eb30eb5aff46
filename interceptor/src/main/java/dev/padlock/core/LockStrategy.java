package dev.padlock.core;

import dev.padlock.LockType;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** Which Redisson lock object guards a key, and how its lease is extended; one implementation per {@link LockType}. */
interface LockStrategy {

    RLock lock(RedissonClient client, String key);

    /**
     * Extends the lease of {@code lock} to {@code leaseMillis} if {@code owner} of this client still holds it (see
     * {@link RenewalScripts}); completes with false when it no longer does.
     */
    CompletionStage<Boolean> renew(RedissonClient client, RLock lock, long owner, long leaseMillis);

    /**
     * Whether calls of one application queue for the lock in {@link LocalTurns} before asking Redis: true for
     * exclusive locks without a fair order.
     */
    default boolean takesTurns() {
        return false;
    }

    static LockStrategy of(LockType type) {
        switch (type) {
            case FAIR:
                return new FairStrategy();
            case READ:
                return new ReadStrategy();
            case WRITE:
                return new WriteStrategy();
            case SPIN:
                return new SpinStrategy();
            case FENCED:
                return new FencedStrategy();
            case REENTRANT:
            default:
                return new ReentrantStrategy();
        }
    }
}
