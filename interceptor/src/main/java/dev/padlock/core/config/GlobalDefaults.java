package dev.padlock.core.config;

import java.time.Duration;

/**
 * The global {@code padlock.*} defaults every lock starts from; a lock's own key or annotation member wins over
 * them. (Named for what it is beside {@code LockSettings}, one lock resolved, and {@code RedisConnectionSettings}.)
 *
 * @param keyPrefix prepended to every lock name ({@link ConfigKeys#KEY_PREFIX}, default {@code padlock:})
 * @param waitTime how long a caller waits for a lock when neither the lock nor its annotation says
 * @param leaseTime a fixed lease, or {@code null} for the watchdog
 * @param onLeaseLost what a call does when its lock was lost while it ran ({@link ConfigKeys#ON_LEASE_LOST})
 * @param release when a call that ends inside its caller's transaction gives its lock up ({@link ConfigKeys#RELEASE})
 * @param watchdogTimeout the lease of watchdog-mode locks as far as the keys say ({@link ConfigKeys#WATCHDOG_TIMEOUT},
 *     else {@link #DEFAULT_WATCHDOG_TIMEOUT}), which bounds a hold-at-least; a value that does not parse counts as the
 *     default here, and the connection's reader reports it
 */
public record GlobalDefaults(
        String keyPrefix,
        Duration waitTime,
        Duration leaseTime,
        LeaseLossPolicy onLeaseLost,
        int handOffLimit,
        Duration handOffBudget,
        ReleasePolicy release,
        Duration watchdogTimeout) {

    public static final String DEFAULT_KEY_PREFIX = "padlock:";
    /** The lease of watchdog-mode locks when {@link ConfigKeys#WATCHDOG_TIMEOUT} is not set (Redisson's default). */
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = Duration.ofSeconds(30);

    /** Finite so a stuck holder turns into an error rather than a hung request. */
    public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(5);

    /**
     * Hand-offs in a row before a hot key is unlocked in Redis ({@link ConfigKeys#HAND_OFF_LIMIT}). A chain of n
     * callers costs one lock and one unlock script and n - 1 checks instead of n lock and unlock scripts; each
     * hand-off waits for one check, so a chain runs at about one call per round trip, and each end of a chain costs
     * a few round trips more (the unlock, another application's lock, its first check). With 32, two applications on
     * one hot key ran above 4x raw Redisson at 1.7 Redis commands per call on a 2-core machine, where 16 gave 2.9x and
     * 2.3 commands; a caller of another application waiting in Redis waits for at most 33 calls of this one (about
     * 33 round trips).
     */
    public static final int DEFAULT_HAND_OFF_LIMIT = 32;
    /** The most a setting may ask for: far beyond any use, and well inside an int. */
    public static final int MAX_HAND_OFF_LIMIT = 1_000_000;
    /**
     * How long a chain of hand-offs may keep a key ({@link ConfigKeys#HAND_OFF_BUDGET}): 100 ms, a fiftieth of the
     * default wait, so a caller of another application waiting in Redis has many chances within its wait even when
     * the local calls are slow.
     */
    public static final Duration DEFAULT_HAND_OFF_BUDGET = Duration.ofMillis(100);

    /** Reads and checks the global keys; each problem names its key. */
    public static GlobalDefaults read(ConfigView config, Problems problems) {
        String prefix = config.raw(ConfigKeys.KEY_PREFIX).orElse(DEFAULT_KEY_PREFIX);
        SettingValues.hasNoHashTag(ConfigKeys.KEY_PREFIX, prefix, problems);
        Duration wait = config.get(ConfigKeys.WAIT_TIME)
                .map(v -> SettingValues.duration(ConfigKeys.WAIT_TIME, v, DEFAULT_WAIT_TIME, null, problems))
                .orElse(DEFAULT_WAIT_TIME);
        Duration lease = config.get(ConfigKeys.LEASE_TIME)
                .map(v -> SettingValues.lease(ConfigKeys.LEASE_TIME, v, problems))
                .orElse(null);
        LeaseLossPolicy onLeaseLost = config.get(ConfigKeys.ON_LEASE_LOST)
                .map(v ->
                        EnumSetting.LEASE_LOSS_POLICY.read(ConfigKeys.ON_LEASE_LOST, v, LeaseLossPolicy.WARN, problems))
                .orElse(LeaseLossPolicy.WARN);
        int handOffLimit = config.get(ConfigKeys.HAND_OFF_LIMIT)
                .map(v -> handOffLimit(ConfigKeys.HAND_OFF_LIMIT, v, DEFAULT_HAND_OFF_LIMIT, problems))
                .orElse(DEFAULT_HAND_OFF_LIMIT);
        Duration handOffBudget = config.get(ConfigKeys.HAND_OFF_BUDGET)
                .map(v ->
                        SettingValues.duration(ConfigKeys.HAND_OFF_BUDGET, v, DEFAULT_HAND_OFF_BUDGET, null, problems))
                .orElse(DEFAULT_HAND_OFF_BUDGET);
        ReleasePolicy release = config.get(ConfigKeys.RELEASE)
                .map(v -> EnumSetting.RELEASE_POLICY.read(
                        ConfigKeys.RELEASE, v, ReleasePolicy.AFTER_TRANSACTION, problems))
                .orElse(ReleasePolicy.AFTER_TRANSACTION);
        Duration watchdogTimeout = config.get(ConfigKeys.WATCHDOG_TIMEOUT)
                .map(GlobalDefaults::durationOrDefault)
                .orElse(DEFAULT_WATCHDOG_TIMEOUT);
        return new GlobalDefaults(
                prefix, wait, lease, onLeaseLost, handOffLimit, handOffBudget, release, watchdogTimeout);
    }

    private static Duration durationOrDefault(String text) {
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            return DEFAULT_WATCHDOG_TIMEOUT;
        }
    }

    /** The rule for a hand-off limit, global or per lock (named by {@code subject}). */
    public static int handOffLimit(String subject, String text, int fallback, Problems problems) {
        return SettingValues.count(subject, text, MAX_HAND_OFF_LIMIT, "hand-offs in a row", fallback, problems);
    }
}
