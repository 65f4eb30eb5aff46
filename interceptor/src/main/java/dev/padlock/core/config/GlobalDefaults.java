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
 */
public record GlobalDefaults(String keyPrefix, Duration waitTime, Duration leaseTime, LeaseLossPolicy onLeaseLost) {

    public static final String DEFAULT_KEY_PREFIX = "padlock:";
    /** Finite so a stuck holder turns into an error rather than a hung request. */
    public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(5);

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
        return new GlobalDefaults(prefix, wait, lease, onLeaseLost);
    }
}
