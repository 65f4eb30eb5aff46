package dev.padlock.core;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** {@code RedissonClient.getSpinLock}. */
final class SpinStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getSpinLock(key);
    }
}
