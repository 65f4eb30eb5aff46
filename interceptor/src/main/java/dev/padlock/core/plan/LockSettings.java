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
        Duration holdAtLeast) {

    /**
     * With the default hand-off bounds ({@link GlobalDefaults#DEFAULT_HAND_OFF_LIMIT} and budget), released after the
     * caller's transaction, with no hold-at-least.
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
                null);
    }

    public boolean usesWatchdog() {
        return leaseTime == null;
    }

    /** Whether a call that ends early keeps its keys until its {@link #holdAtLeast} has passed. */
    public boolean holdsAtLeast() {
        return holdAtLeast != null;
    }
}
