package dev.padlock.core;

import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** {@code RedissonClient.getLock}. */
final class ReentrantStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getLock(key);
    }

    @Override
    public CompletionStage<Boolean> renew(RedissonClient client, RLock lock, long owner, long leaseMillis) {
        return RenewalScripts.exclusive(client, lock.getName(), RenewalScripts.ownerField(client, owner), leaseMillis);
    }

    @Override
    public boolean takesTurns() {
        return true;
    }
}
