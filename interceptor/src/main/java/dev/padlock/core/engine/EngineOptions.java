package dev.padlock.core.engine;

/**
 * Rules of an engine that a test deployment may switch off, each to show that the rule matters: a test of a rule
 * runs a control without it, which must fail the same check. Applications never set these; {@link #DEFAULTS} is what
 * every integration uses.
 *
 * @param reportsLossAtDeadline whether a lock is reported lost at its deadline, before Redis could give it to another
 *     client (off: the holder hears of its loss only when a renewal or its release finds the key gone)
 * @param givesWay whether the next local caller gives way to other applications after an unlock ends a chain (off:
 *     the application wins its key straight back)
 */
public record EngineOptions(boolean reportsLossAtDeadline, boolean givesWay) {

    /** Every rule on. */
    public static final EngineOptions DEFAULTS = new EngineOptions(true, true);

    /** As these, with losses found only by renewals and releases, not at the deadline. */
    public EngineOptions withoutLossAtDeadline() {
        return new EngineOptions(false, givesWay);
    }

    /** As these, with no giving way after an unlock. */
    public EngineOptions withoutGivingWay() {
        return new EngineOptions(reportsLossAtDeadline, false);
    }
}
