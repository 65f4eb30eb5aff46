package dev.padlock.core;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** {@code RedissonClient.getLock}. */
final class ReentrantStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getLock(key);
    }
}
