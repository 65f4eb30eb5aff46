package dev.padlock.core.lease;

import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LockedCall;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * What {@link LeaseRenewal} needs of the operation whose call it watches, and all it may ask of it: how to renew the
 * call's locks, and what to do when a renewal fails, a lock is lost, or a lapsing call's lease ends. The renewal
 * thus knows calls and this interface, not the operations behind them.
 */
public interface LeaseHolder {

    /**
     * Whether the call's locks were taken with a fixed lease: not renewed, only their deadlines watched, except that a
     * lock handed to the call is extended to the lease owed to it (see {@link HandOff}).
     */
    boolean hasFixedLease();

    /**
     * Extends the lease of {@code lock} to {@code leaseMillis} if {@code owner} still holds it; completes with false
     * when it does not.
     */
    CompletionStage<Boolean> renew(RedissonClient redisson, RLock lock, long owner, long leaseMillis);

    /** A renewal of lock {@code lock} could not reach Redis; it is tried again every {@code retryMillis}. */
    void renewalFailed(LockedCall call, RLock lock, Throwable failure, long retryMillis);

    /** Redis answered a renewal of lock {@code index}: this owner does not hold it any more. */
    void lostOnRenewal(LockedCall call, int index);

    /** Lock {@code index} passed its deadline without a newer confirmation. */
    void deadlinePassed(LockedCall call, int index);

    /**
     * For a call left to lapse: passes on the turns of the locks whose deadline passed by {@code now}; returns when
     * the next one's deadline comes, or {@code Long.MAX_VALUE} when none is left.
     */
    long lapsedBy(LockedCall call, long now);
}
