package dev.padlock.core;

import dev.padlock.LockType;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** Which Redisson lock object guards a key; one implementation per {@link LockType}. */
interface LockStrategy {

    RLock lock(RedissonClient client, String key);

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
