package dev.padlock.core.client;

import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.GlobalDefaults;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How to reach Redis, from the {@code padlock.redis.*} keys ({@link ConfigKeys}); the same keys on every runtime.
 * Either a topology Padlock configures itself ({@link #servers}) or a Redisson YAML file ({@link #fromFile}).
 * Read and checked as a whole at deployment by {@code RedisConnectionReader}; turned into a Redisson
 * configuration by {@code RedissonConfigs}. The password is kept out of {@link #toString()} and every message.
 *
 * @param mode the topology; {@code null} with a config file
 * @param addresses the server (single) or the nodes or sentinels; empty with a config file
 * @param watchdogTimeout {@code padlock.watchdog-timeout} when set, else {@code null}: see {@link RedissonConfigs#build}
 * @param replicas {@code padlock.redis.replica-confirmation} and {@code .replica-timeout}, each {@code null} when unset
 * @param addressKey the key that names the servers, for messages: {@code padlock.redis.address}, {@code .nodes} or
 *     {@code .config-file}, or where an integration took the address from ({@link #withAddressFrom})
 */
public record RedisConnectionSettings(
        Mode mode,
        List<String> addresses,
        String masterName,
        String username,
        String password,
        Integer database,
        String configFile,
        Duration watchdogTimeout,
        Replicas replicas,
        String addressKey) {

    public static final String DEFAULT_ADDRESS = "redis://127.0.0.1:6379";
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = GlobalDefaults.DEFAULT_WATCHDOG_TIMEOUT;

    /**
     * The shortest watchdog timeout. Padlock renews a watchdog-mode lock every third of it, and the first renewal
     * may come up to two thirds in; below a second that leaves a few hundred milliseconds for a renewal round
     * trip, a GC pause or a failover hiccup before the lock lapses under a running method, which is no margin.
     */
    static final Duration MIN_WATCHDOG_TIMEOUT = Duration.ofSeconds(1);

    /** The topologies Padlock configures itself; anything else goes through {@link ConfigKeys#REDIS_CONFIG_FILE}. */
    enum Mode {
        SINGLE,
        CLUSTER,
        SENTINEL,
        REPLICATED
    }

    public RedisConnectionSettings {
        addresses = List.copyOf(addresses);
    }

    /** A Redisson YAML file (path or class-path resource) describes the whole connection. */
    static RedisConnectionSettings fromFile(String configFile, Duration watchdogTimeout, Replicas replicas) {
        return new RedisConnectionSettings(
                null,
                List.of(),
                null,
                null,
                null,
                null,
                configFile,
                watchdogTimeout,
                replicas,
                ConfigKeys.REDIS_CONFIG_FILE);
    }

    /** A topology Padlock configures from the keys; the nullable parts are those left unset. */
    static RedisConnectionSettings servers(
            Mode mode,
            List<String> addresses,
            String masterName,
            Credentials credentials,
            Integer database,
            Duration watchdogTimeout,
            Replicas replicas) {
        return new RedisConnectionSettings(
                mode,
                addresses,
                masterName,
                credentials.username(),
                credentials.password(),
                database,
                null,
                watchdogTimeout,
                replicas,
                mode == Mode.SINGLE ? ConfigKeys.REDIS_ADDRESS : ConfigKeys.REDIS_NODES);
    }

    /**
     * These settings, with the address read from another key than Padlock's own: what an integration bridged into
     * {@code padlock.redis.address} (Quarkus: {@code quarkus.redis.hosts}), so that a failure names the key the user
     * actually set.
     */
    public RedisConnectionSettings withAddressFrom(String key) {
        return new RedisConnectionSettings(
                mode, addresses, masterName, username, password, database, configFile, watchdogTimeout, replicas, key);
    }

    /**
     * Whether, and how long, the master's replicas are waited for after each acquisition, renewal and lease extension
     * (Redisson's {@code checkLockSyncedSlaves} and {@code slavesSyncTimeout}); each {@code null} when unset, which
     * leaves a config file's values, else on and 1 s.
     */
    public record Replicas(Boolean confirm, Duration timeout) {
        public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);
    }

    /** {@code padlock.redis.username} and {@code .password}, each {@code null} when unset. */
    record Credentials(String username, String password) {
        @Override
        public String toString() {
            return "Credentials[username=" + username + (password != null ? ", password set]" : "]");
        }
    }

    /**
     * The start-up line when the application provides its own {@code RedissonClient}: which of the keys that
     * describe Padlock's own client are set but do not apply. Names only, never values (the password, or one
     * inside an address).
     */
    public static Optional<String> ignoredWithApplicationClient(ConfigView config) {
        List<String> set = ConfigKeys.CLIENT.stream()
                .filter(key -> config.get(key).isPresent())
                .toList();
        if (set.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Padlock locks through the application's own RedissonClient, so " + String.join(", ", set)
                + (set.size() == 1 ? " is" : " are") + " set but ignored: that client's own configuration applies,"
                + " its lockWatchdogTimeout included. Remove " + (set.size() == 1 ? "the key" : "these keys")
                + ", or the application's RedissonClient bean to have Padlock build its client from them.");
    }

    /** What no message may show: the configured password, and any password in an address's user info. */
    Secrets secrets() {
        return Secrets.of(password, addresses);
    }

    /** Whether any address carries user info, which Redisson takes as username and password. */
    boolean addressHasUserInfo() {
        return addresses.stream().anyMatch(a -> a.lastIndexOf('@') > a.indexOf("://"));
    }

    /** Where Padlock connects, for a log line; never the password. */
    public String describe() {
        if (configFile != null) {
            return "Redisson configuration " + configFile;
        }
        StringBuilder s = new StringBuilder(mode.name().toLowerCase(Locale.ROOT)).append(' ');
        s.append(addresses.stream().map(Secrets::maskedAddress).toList());
        if (masterName != null) {
            s.append(" master ").append(masterName);
        }
        if (database != null) {
            s.append(" database ").append(database);
        }
        if (username != null) {
            s.append(" user ").append(username);
        }
        if (password != null) {
            s.append(" (password set)");
        }
        return s.toString();
    }

    @Override
    public String toString() {
        String watchdog = watchdogTimeout != null
                ? DurationText.format(watchdogTimeout)
                : configFile != null ? "from the file" : DurationText.format(DEFAULT_WATCHDOG_TIMEOUT);
        return "RedisConnectionSettings[" + describe() + ", watchdog " + watchdog + "]";
    }
}
