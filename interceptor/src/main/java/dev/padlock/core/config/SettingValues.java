package dev.padlock.core.config;

import java.time.Duration;

/**
 * The rules for the values of settings that are not enums ({@link EnumSetting}), each written once for
 * annotation members, per-lock keys and global keys alike: durations, leases, and names that end up in a Redis
 * key. The caller names the {@code subject} (see {@link Problems}), so one rule has one text wherever it is
 * broken.
 */
public final class SettingValues {

    /** The value of a lease setting that asks for the watchdog explicitly. */
    public static final String WATCHDOG = "watchdog";

    private SettingValues() {}

    /**
     * A duration ({@link DurationText}); else a problem and {@code fallback}.
     *
     * @param fix what to do instead beyond the syntax the reason already gives, or {@code null}
     */
    public static Duration duration(String subject, String text, Duration fallback, String fix, Problems problems) {
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            problems.invalid(subject, e.getMessage(), fix);
            return fallback;
        }
    }

    /**
     * A count from 0 to {@code max}; else a problem and {@code fallback}.
     *
     * @param what what is counted, for the message, e.g. {@code hand-offs in a row}
     */
    public static int count(String subject, String text, int max, String what, int fallback, Problems problems) {
        int count;
        try {
            count = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            count = -1;
        }
        if (count < 0 || count > max) {
            problems.invalid(
                    subject,
                    "'" + text.trim() + "' is not a number of " + what + " from 0 to " + max,
                    "Use a whole number such as " + fallback + " (0 turns it off)");
            return fallback;
        }
        return count;
    }

    /**
     * A lease: a duration of at least 1 ms, or {@code watchdog} (any case). Returns {@code null} for the
     * watchdog, and after a problem (which then stops the deployment anyway).
     */
    public static Duration lease(String subject, String text, Problems problems) {
        if (text.trim().equalsIgnoreCase(WATCHDOG)) {
            return null;
        }
        Duration lease;
        try {
            lease = DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            problems.invalid(subject, e.getMessage() + ", or '" + WATCHDOG + "'", null);
            return null;
        }
        if (lease.isZero()) {
            problems.invalid(
                    subject,
                    "a lease of 0 would free the lock at once",
                    "Set a positive lease, or '" + WATCHDOG + "' to have it renewed while the method runs");
            return null;
        }
        if (lease.compareTo(DurationText.MIN_LEASE) < 0) {
            problems.invalid(
                    subject,
                    "'" + text.trim() + "' is under 1ms, the smallest lease Redis keeps",
                    "Set 1ms or more, or '" + WATCHDOG + "'");
            return null;
        }
        return lease;
    }

    /**
     * Whether {@code text}, which becomes part of a Redis key (a lock name, the key prefix), is free of
     * {@code '{'} and {@code '}'}; else a problem. Redis Cluster reads braces as a hash tag, which would put
     * Redisson's side keys of the lock in another slot than the lock. Rendered keys are escaped instead.
     */
    public static boolean hasNoHashTag(String subject, String text, Problems problems) {
        if (text.indexOf('{') < 0 && text.indexOf('}') < 0) {
            return true;
        }
        problems.invalid(
                subject,
                "'" + text + "' contains '{' or '}', which Redis Cluster reads as a hash tag and which would put"
                        + " Redisson's side keys of the lock in another slot than the lock",
                "Remove the braces");
        return false;
    }
}
