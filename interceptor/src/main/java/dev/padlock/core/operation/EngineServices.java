package dev.padlock.core.operation;

import dev.padlock.core.CallerContext;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.config.ReleasePolicy;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.events.LockLossReporter;
import dev.padlock.core.lease.LeaseRenewal;
import dev.padlock.core.redis.LockCommands;
import dev.padlock.core.turns.LocalTurns;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the operations of one engine (one application) share: its client, one renewal timer for all its held locks,
 * one releaser, one loss reporter, its callers' context, one local queue per key, who observes its locks, when a call
 * of each release policy releases, the lock commands its calls send and the clock they read ({@code ticker}).
 */
public record EngineServices(
        RedisClientSource client,
        LeaseRenewal renewal,
        Releaser releaser,
        LockLossReporter reporter,
        CallerContext callers,
        LocalTurns<HandOff.Hold> turns,
        LockEvents events,
        Map<ReleasePolicy, ReleaseTiming> releaseTimings,
        LockCommands commands,
        LongSupplier ticker) {

    /** When calls of a method released under {@code policy} release; {@link ReleaseTiming#AT_RETURN} if not wired. */
    public ReleaseTiming releaseTiming(ReleasePolicy policy) {
        return releaseTimings.getOrDefault(policy, ReleaseTiming.AT_RETURN);
    }
}
