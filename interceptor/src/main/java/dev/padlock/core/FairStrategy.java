package dev.padlock.core;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** {@code RedissonClient.getFairLock}. */
final class FairStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getFairLock(key);
    }
}
