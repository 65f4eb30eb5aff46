package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.client.RedisConnectionSettings;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import java.util.Optional;

/**
 * An application that already talks to Redis through the Quarkus Redis client (or its Dev Service) has
 * {@code quarkus.redis.hosts}; Padlock uses that Redis when none of its own {@code padlock.redis.*} keys is
 * set.
 */
public final class QuarkusRedisHosts {

    /** The Quarkus Redis client's address key, which its own Dev Service sets too. */
    public static final String HOSTS = "quarkus.redis.hosts";

    private QuarkusRedisHosts() {}

    /**
     * Whether one of Padlock's own ways to name a Redis ({@link ConfigKeys#REDIS_SERVERS}) is set (blank counts as
     * unset); then Padlock neither bridges nor starts a Dev Service.
     */
    public static boolean padlockConfigured(ConfigView config) {
        return ConfigKeys.REDIS_SERVERS.stream().anyMatch(k -> config.get(k).isPresent());
    }

    /** {@code config}, with {@code padlock.redis.address} taken from {@code quarkus.redis.hosts} when due. */
    static ConfigView bridge(ConfigView config) {
        Optional<String> address =
                padlockConfigured(config) ? Optional.empty() : config.get(HOSTS).map(QuarkusRedisHosts::first);
        if (address.isEmpty()) {
            return config;
        }
        return key -> key.equals(ConfigKeys.REDIS_ADDRESS) ? address : config.raw(key);
    }

    /**
     * {@code settings} read from {@link #bridge bridge(config)}, naming {@code quarkus.redis.hosts} as where the
     * address came from when it did: a connection failure then points at the key the user set.
     */
    static RedisConnectionSettings namingTheSource(RedisConnectionSettings settings, ConfigView config) {
        boolean bridged = !padlockConfigured(config) && config.get(HOSTS).isPresent();
        return bridged ? settings.withAddressFrom(HOSTS) : settings;
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
