package dev.padlock.core.operation;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.lease.LeaseRenewal;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.LockCommands;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.turns.LocalTurns;
import java.util.function.LongSupplier;

/**
 * What every acquisition of one method's calls shares, fixed at deployment: each {@link Taking} reads it, and {@link
 * Acquirer} builds it.
 *
 * @param waitMillis how long a call may wait for all of its locks together
 * @param leaseMillis a fixed lease, or -1 when the lock is renewed while held (watchdog mode)
 * @param fenced whether each acquisition gets a fencing token
 * @param timing when the method's calls release; a call ending inside what it waits for (the caller's transaction)
 *     asks it whether a wait could never end
 * @param commands the lock commands the acquisition sends
 * @param ticker the engine's clock, which the wait budget is read on
 * @param handsOff whether this method's calls hand their keys on: only then do they check a hold early
 */
record AcquisitionRules(
        LockPlan plan,
        long waitMillis,
        long leaseMillis,
        boolean fenced,
        LockKind kind,
        LocalTurns<HandOff.Hold> turns,
        LeaseRenewal renewal,
        Releaser releaser,
        RedisClientSource client,
        ReleaseTiming timing,
        LockCommands commands,
        LongSupplier ticker,
        boolean handsOff) {

    /** Why lock {@code key} was not acquired, in words naming the method, its wait and the fix. */
    LockNotAcquiredException notAcquired(String key, String reason, Throwable cause) {
        return new LockNotAcquiredException(key, plan.method(), plan.settings().waitTime(), reason, cause);
    }
}
