package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import java.util.List;
import java.util.Optional;

/**
 * An application that already talks to Redis through the Quarkus Redis client (or its Dev Service) has
 * {@code quarkus.redis.hosts}; Padlock uses that Redis when none of its own {@code padlock.redis.*} keys is
 * set.
 */
final class QuarkusRedisHosts {

    static final String HOSTS = "quarkus.redis.hosts";

    private static final List<String> PADLOCK_CONNECTION_KEYS = List.of(
            ConfigKeys.REDIS_ADDRESS, ConfigKeys.REDIS_MODE, ConfigKeys.REDIS_NODES, ConfigKeys.REDIS_CONFIG_FILE);

    private QuarkusRedisHosts() {}

    /** {@code config}, with {@code padlock.redis.address} taken from {@code quarkus.redis.hosts} when due. */
    static ConfigView bridge(ConfigView config) {
        boolean padlockConfigured =
                PADLOCK_CONNECTION_KEYS.stream().anyMatch(k -> config.get(k).isPresent());
        Optional<String> address =
                padlockConfigured ? Optional.empty() : config.get(HOSTS).map(QuarkusRedisHosts::first);
        if (address.isEmpty()) {
            return config;
        }
        return key -> key.equals(ConfigKeys.REDIS_ADDRESS) ? address : config.raw(key);
    }

    /**
     * The first of the comma-separated hosts, without a database path ({@code redis://h:6379/0}): Redisson
     * wants {@code scheme://host:port}.
     */
    static String first(String hosts) {
        String first = hosts.split(",")[0].trim();
        int scheme = first.indexOf("://");
        int path = scheme < 0 ? -1 : first.indexOf('/', scheme + 3);
        return path < 0 ? first : first.substring(0, path);
    }
}
