package dev.padlock.core;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** {@code RedissonClient.getFencedLock}. */
final class FencedStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getFencedLock(key);
    }
}
