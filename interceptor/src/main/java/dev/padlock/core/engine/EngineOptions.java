package dev.padlock.core.engine;

import dev.padlock.core.redis.LockCommands;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What a test deployment may change in an engine: rules it may switch off, each to show that the rule matters (a test
 * of a rule runs a control without it, which must fail the same check), and the clock and lock commands, which the
 * engine's value tests script. Applications never set these; {@link #DEFAULTS} is what every integration uses.
 *
 * @param reportsLossAtDeadline whether a lock is reported lost at its deadline, before Redis could give it to another
 *     client (off: the holder hears of its loss only when a renewal or its release finds the key gone)
 * @param givesWay whether the next local caller gives way to other applications after an unlock ends a chain (off:
 *     the application wins its key straight back)
 * @param ticker the engine's monotonic clock, in nanoseconds ({@code System::nanoTime}): every deadline, lease and
 *     wait budget of its calls is read on it. It must read non-negative values, as {@code System.nanoTime} does on
 *     HotSpot (time since boot): the engine's sums use {@code Long.MAX_VALUE} for "never"
 * @param commands the lock commands the engine's calls send ({@link LockCommands#REDISSON})
 */
public record EngineOptions(
        boolean reportsLossAtDeadline, boolean givesWay, LongSupplier ticker, LockCommands commands) {

    /** Every rule on, the system's clock, Redisson's commands. */
    public static final EngineOptions DEFAULTS = new EngineOptions(true, true, System::nanoTime, LockCommands.REDISSON);

    public EngineOptions {
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(commands, "commands");
    }

    /** As these, with losses found only by renewals and releases, not at the deadline. */
    public EngineOptions withoutLossAtDeadline() {
        return new EngineOptions(false, givesWay, ticker, commands);
    }

    /** As these, with no giving way after an unlock. */
    public EngineOptions withoutGivingWay() {
        return new EngineOptions(reportsLossAtDeadline, false, ticker, commands);
    }

    /** As these, on {@code ticker} instead of the system's monotonic clock. */
    public EngineOptions withTicker(LongSupplier ticker) {
        return new EngineOptions(reportsLossAtDeadline, givesWay, ticker, commands);
    }

    /** As these, sending {@code commands} instead of Redisson's. */
    public EngineOptions withCommands(LockCommands commands) {
        return new EngineOptions(reportsLossAtDeadline, givesWay, ticker, commands);
    }
}
