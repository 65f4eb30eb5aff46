package dev.padlock.core;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** The write side of {@code RedissonClient.getReadWriteLock}. */
final class WriteStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getReadWriteLock(key).writeLock();
    }
}
