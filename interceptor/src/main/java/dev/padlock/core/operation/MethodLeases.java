package dev.padlock.core.operation;

import dev.padlock.LockLost;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.lease.LeaseHolder;
import dev.padlock.core.lease.LockLosses;
import dev.padlock.core.redis.LockKind;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * The {@link LeaseHolder} of one method's calls: what the lease renewal may ask of them (how to renew their locks),
 * and what it does when they are lost or lapse. Built once per method.
 *
 * @param hasFixedLease whether the locks are taken with a fixed lease rather than renewed while held
 */
record MethodLeases(LockKind kind, boolean hasFixedLease) implements LeaseHolder {

    @Override
    public CompletionStage<Boolean> renew(RedissonClient redisson, RLock lock, long owner, long leaseMillis) {
        return kind.renew(redisson, lock, owner, leaseMillis);
    }

    @Override
    public void renewalFailed(LockedCall call, RLock lock, Throwable failure, long retryMillis) {
        LockLosses.renewalFailed(call, lock.getName(), failure, retryMillis);
    }

    @Override
    public void lostOnRenewal(LockedCall call, int index) {
        LockLosses.lostWhileHeld(call, index, LockLost.Detection.RENEWAL, null);
    }

    @Override
    public void deadlinePassed(LockedCall call, int index) {
        LockLosses.deadlinePassed(call, index);
    }

    @Override
    public long lapsedBy(LockedCall call, long now) {
        return Releaser.lapsedBy(call, now);
    }
}
