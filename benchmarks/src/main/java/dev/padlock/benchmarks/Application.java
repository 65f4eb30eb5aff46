package dev.padlock.benchmarks;

import dev.padlock.cdi.PadlockExtension;
import dev.padlock.core.client.RedisConnectionSettings;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.WeldInitiator;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/**
 * One CDI application with both sides in it: Padlock's extension (with its own Redisson client, built from
 * MicroProfile Config) and a raw Redisson client configured the same way, both on the suite's Redis. Built
 * fresh for every row so that no client carries state (connections, Redisson's renewal timers) from one row
 * into the next.
 */
final class Application implements AutoCloseable {

    private final WeldContainer container;
    private final Config config;
    private final RedissonClient rawClient;

    private Application(WeldContainer container, Config config, RedissonClient rawClient) {
        this.container = container;
        this.config = config;
        this.rawClient = rawClient;
    }

    /**
     * @param padlockConfig more Padlock properties ({@code --padlock-config}), over the suite's own; e.g.
     *     {@code padlock.hand-off-limit=0} to see the one-key rows without local hand-off
     */
    static Application start(Topology redis, boolean metrics, Map<String, String> padlockConfig) {
        return start(redis.connection(), RedisConnectionSettings.DEFAULT_WATCHDOG_TIMEOUT, metrics, padlockConfig);
    }

    /**
     * Both clients with the given watchdog timeout ({@code padlock.watchdog-timeout}, Redisson's default 30s).
     *
     * @param metrics whether the application has a {@code MeterRegistry} bean, so that Padlock's meters count every
     *     call (see {@link Meters})
     */
    static Application start(Topology redis, Duration watchdog, boolean metrics) {
        return start(redis.connection(), watchdog, metrics, Map.of());
    }

    /** Both clients on the Redis {@code connection} leads to: a child JVM of the multi-JVM rows has only that. */
    static Application start(
            Connection connection, Duration watchdog, boolean metrics, Map<String, String> padlockConfig) {
        Map<String, String> properties = new HashMap<>(connection.padlockProperties());
        properties.put("padlock.watchdog-timeout", watchdog.toMillis() + "ms");
        properties.putAll(padlockConfig);
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "benchmark", 500))
                .build();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ConfigProviderResolver.instance().registerConfig(config, loader);
        WeldContainer container = null;
        RedissonClient raw = null;
        try {
            Weld weld = WeldInitiator.createWeld()
                    .addExtension(new PadlockExtension())
                    .addBeanClasses(LockedCalls.class, RawCalls.class, Losses.class);
            if (metrics) {
                weld.addBeanClasses(Meters.class);
            }
            container = weld.initialize();
            raw = Redisson.create(connection.redissonConfig(watchdog));
            container.select(RawCalls.class).get().use(raw);
            return new Application(container, config, raw);
        } catch (RuntimeException e) {
            if (raw != null) {
                raw.shutdown();
            }
            if (container != null) {
                container.shutdown();
            }
            ConfigProviderResolver.instance().releaseConfig(config);
            throw e;
        }
    }

    RedissonClient rawClient() {
        return rawClient;
    }

    LockedCalls locked() {
        return container.select(LockedCalls.class).get();
    }

    /**
     * How many acquisitions Padlock's meters counted, or -1 when the application has no registry: a run with {@code
     * --metrics} proves with it that the meters were on.
     */
    long meteredAcquisitions() {
        return container.select(Meters.class).isResolvable()
                ? container.select(Meters.class).get().acquisitions()
                : -1;
    }

    /** How many {@code LockLost} events the application's calls have had so far. */
    long locksLost() {
        return container.select(Losses.class).get().count();
    }

    RawCalls raw() {
        return container.select(RawCalls.class).get();
    }

    @Override
    public void close() {
        try {
            rawClient.shutdown();
        } finally {
            try {
                container.shutdown();
            } finally {
                ConfigProviderResolver.instance().releaseConfig(config);
            }
        }
    }
}
