package dev.padlock.core;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** The read side of {@code RedissonClient.getReadWriteLock}. */
final class ReadStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getReadWriteLock(key).readLock();
    }
}
