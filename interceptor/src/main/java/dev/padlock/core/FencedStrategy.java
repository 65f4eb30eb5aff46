package dev.padlock.core;

import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** {@code RedissonClient.getFencedLock}. */
final class FencedStrategy implements LockStrategy {
    @Override
    public RLock lock(RedissonClient client, String key) {
        return client.getFencedLock(key);
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
