package dev.padlock.core.call;

import dev.padlock.LockType;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.events.LockLossReporter;
import dev.padlock.core.redis.LockKind;
import java.util.function.LongSupplier;

/**
 * What a call says about itself, fixed per method: what {@link dev.padlock.LockContext} and loss reports name, and
 * where its losses are reported. One instance per operation, shared by its calls.
 *
 * @param method the method as messages name it
 * @param lockName the lock name, as {@code padlock.locks."<name>"} configures it
 * @param redisBase the Redis key of the lock without its key part: {@code padlock.key-prefix} plus the name
 * @param reporter where the call's losses are reported: one per engine, so it also tells which engine (application)
 *     the call belongs to; nested calls share holds within one engine only
 * @param meter what the call tells metrics, or {@code null} when nothing listens (then nothing is measured for them)
 * @param kind what Padlock knows of the lock type's Redisson locks (checks, channels, renewals)
 * @param holdAtLeastMillis the least time the call's keys stay held from its acquisition ({@code Locked.holdAtLeast});
 *     0: none, they are released when it ends
 * @param hasFixedLease whether the locks are taken with a fixed lease ({@code Locked.leaseTime}): not renewed, only
 *     their deadlines watched, except that a lock handed to the call is extended to the lease owed to it (see {@link
 *     HandOff}); false in watchdog mode, where they are renewed while held
 * @param ticker the engine's monotonic clock in nanoseconds ({@code EngineOptions.ticker}), which the call's times
 *     are read on
 * @param lockDelayMillis how much longer than the lease each key lives in Redis ({@code lock-delay}): added to every
 *     expiry the call sends (acquisition, renewal, extension), never to its deadlines; 0: none
 * @param interruptsOnLoss whether a loss found while the call runs stops its work ({@code on-lease-lost=interrupt}):
 *     its body's thread is interrupted and its result cancelled (see {@link WorkStopper})
 */
public record CallFacts(
        String method,
        String lockName,
        String redisBase,
        LockType type,
        LockLossReporter reporter,
        LockEvents.Meter meter,
        LockKind kind,
        long holdAtLeastMillis,
        boolean hasFixedLease,
        LongSupplier ticker,
        long lockDelayMillis,
        boolean interruptsOnLoss) {

    /** The expiry in Redis for a lease of {@code leaseMillis}: the lease plus the lock-delay. */
    public long expiryMillis(long leaseMillis) {
        return leaseMillis + lockDelayMillis;
    }

    /** Whether the two calls run in the same engine, and so may share a hold of a key (see {@link LockedCall}). */
    boolean sameEngineAs(CallFacts other) {
        return reporter == other.reporter;
    }
}
