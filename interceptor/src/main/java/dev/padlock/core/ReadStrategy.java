package dev.padlock.core;

import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** The read side of {@code RedissonClient.getReadWriteLock}. */
final class ReadStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getReadWriteLock(key).readLock();
    }

    @Override
    public CompletionStage<Boolean> renew(RedissonClient client, RLock lock, long owner, long leaseMillis) {
        return RenewalScripts.read(client, lock.getName(), RenewalScripts.ownerField(client, owner), leaseMillis);
    }
}
