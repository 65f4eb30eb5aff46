package dev.padlock.core.config;

import java.time.Duration;
import java.util.List;

/**
 * The global {@code padlock.*} settings every lock starts from.
 *
 * @param keyPrefix prepended to every lock name ({@code padlock.key-prefix}, default {@code padlock:})
 * @param waitTime how long a caller waits for a lock when neither the lock nor its annotation says
 * @param leaseTime a fixed lease, or {@code null} for Redisson's watchdog
 * @param onLeaseLost what a call does when its lock was lost while it ran ({@code padlock.on-lease-lost})
 */
public record PadlockSettings(String keyPrefix, Duration waitTime, Duration leaseTime, LeaseLossPolicy onLeaseLost) {

    public static final String KEY_PREFIX = "padlock.key-prefix";
    public static final String WAIT_TIME = "padlock.wait-time";
    public static final String LEASE_TIME = "padlock.lease-time";
    public static final String ON_LEASE_LOST = "padlock.on-lease-lost";

    public static final String DEFAULT_KEY_PREFIX = "padlock:";
    /** Finite so a stuck holder turns into an error rather than a hung request. */
    public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(5);

    /** The value of a lease setting that asks for the watchdog explicitly. */
    public static final String WATCHDOG = "watchdog";

    public static PadlockSettings read(ConfigView config, List<String> problems) {
        String prefix = config.raw(KEY_PREFIX).orElse(DEFAULT_KEY_PREFIX);
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            problems.add("Invalid " + KEY_PREFIX + " '" + prefix
                    + "': '{' and '}' would make Redis Cluster hash Redisson's side keys of a lock to other slots"
                    + " than the lock. Remove the braces.");
        }
        Duration wait =
                config.get(WAIT_TIME).map(v -> duration(WAIT_TIME, v, problems)).orElse(DEFAULT_WAIT_TIME);
        Duration lease =
                config.get(LEASE_TIME).map(v -> lease(LEASE_TIME, v, problems)).orElse(null);
        LeaseLossPolicy onLeaseLost = config.get(ON_LEASE_LOST)
                .map(v -> leaseLossPolicy(ON_LEASE_LOST, v, problems))
                .orElse(LeaseLossPolicy.WARN);
        return new PadlockSettings(prefix, wait, lease, onLeaseLost);
    }

    /** {@code warn} or {@code throw}, in any case. */
    public static LeaseLossPolicy leaseLossPolicy(String key, String value, List<String> problems) {
        for (LeaseLossPolicy policy : LeaseLossPolicy.values()) {
            if (policy.name().equalsIgnoreCase(value.trim())) {
                return policy;
            }
        }
        problems.add("Invalid " + key + " '" + value + "': use 'warn' (report a lost lock: event, WARN log, metric)"
                + " or 'throw' (report it and throw LockLostException after the method).");
        return LeaseLossPolicy.WARN;
    }

    public static Duration duration(String key, String value, List<String> problems) {
        try {
            return DurationText.parse(value);
        } catch (IllegalArgumentException e) {
            problems.add("Invalid " + key + ": " + e.getMessage() + ".");
            return DEFAULT_WAIT_TIME;
        }
    }

    /** A lease value: a positive duration or {@code watchdog}; {@code null} means the watchdog. */
    public static Duration lease(String key, String value, List<String> problems) {
        if (value.trim().equalsIgnoreCase(WATCHDOG)) {
            return null;
        }
        try {
            Duration d = DurationText.parse(value);
            String problem = DurationText.leaseProblem(value, d);
            if (problem != null) {
                problems.add("Invalid " + key + ": " + problem + ". Set "
                        + (d.isZero() ? "a positive lease" : "1ms or more") + ", or 'watchdog'"
                        + (d.isZero() ? " (or nothing) to have it renewed while the method runs." : "."));
                return null;
            }
            return d;
        } catch (IllegalArgumentException e) {
            problems.add("Invalid " + key + ": " + e.getMessage() + ", or 'watchdog'.");
            return null;
        }
    }
}
