package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.config.ReleasePolicy;
import java.time.Duration;

/**
 * What one lock resolved to after configuration, annotation and defaults.
 *
 * @param leaseTime a fixed lease, or {@code null} when the lock is renewed while held (watchdog mode)
 * @param onLeaseLost whether a lost lock also makes the call throw
 * @param handOffLimit how many times in a row a held key may pass to the next caller of this application waiting
 *     for it without being unlocked in Redis; 0: never
 * @param handOffBudget how long such a chain may keep the key from when it was taken from Redis; 0: no hand-off
 * @param release whether a call that ends inside its caller's JTA transaction keeps its lock until that transaction
 *     completes
 * @param holdAtLeast the least time the lock stays held from its acquisition: a call that ends sooner leaves its key
 *     to expire then instead of unlocking it ({@code Locked.holdAtLeast}); {@code null}: none
 * @param lockDelay how much longer than the lease the key lives in Redis ({@code padlock.locks."<name>".lock-delay}):
 *     each acquisition and renewal sets the key's expiry to the lease plus this, while the holder's own deadline stays
 *     at the lease, so a holder that vanished (crashed, paused, cut off) blocks the key this much longer than its lease
 *     while its last writes drain; a release deletes the key at once. {@link Duration#ZERO}: none
 */
public record LockSettings(
        LockType type,
        Duration waitTime,
        Duration leaseTime,
        OnFailure onFailure,
        LeaseLossPolicy onLeaseLost,
        int handOffLimit,
        Duration handOffBudget,
        ReleasePolicy release,
        Duration holdAtLeast,
        Duration lockDelay) {

    /**
     * With the default hand-off bounds ({@link GlobalDefaults#DEFAULT_HAND_OFF_LIMIT} and budget), released after the
     * caller's transaction, with no hold-at-least and no lock-delay.
     */
    public LockSettings(
            LockType type, Duration waitTime, Duration leaseTime, OnFailure onFailure, LeaseLossPolicy onLeaseLost) {
        this(
                type,
                waitTime,
                leaseTime,
                onFailure,
                onLeaseLost,
                GlobalDefaults.DEFAULT_HAND_OFF_LIMIT,
                GlobalDefaults.DEFAULT_HAND_OFF_BUDGET,
                ReleasePolicy.AFTER_TRANSACTION,
                null,
                Duration.ZERO);
    }

    public boolean usesWatchdog() {
        return leaseTime == null;
    }

    /** Whether a call that ends early keeps its keys until its {@link #holdAtLeast} has passed. */
    public boolean holdsAtLeast() {
        return holdAtLeast != null;
    }
}
