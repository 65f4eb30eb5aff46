package dev.padlock.core;

import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** The write side of {@code RedissonClient.getReadWriteLock}. */
final class WriteStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getReadWriteLock(key).writeLock();
    }

    /** Redisson records a writer under its owner field with {@code :write} appended. */
    @Override
    public CompletionStage<Boolean> renew(RedissonClient client, RLock lock, long owner, long leaseMillis) {
        return RenewalScripts.exclusive(
                client, lock.getName(), RenewalScripts.ownerField(client, owner) + ":write", leaseMillis);
    }

    @Override
    public boolean takesTurns() {
        return true;
    }
}
