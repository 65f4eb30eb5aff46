package dev.padlock.cdi;

import dev.padlock.core.engine.EngineOptions;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.WeldInitiator;

/**
 * A Weld 6 container (built with weld-junit5) running the Padlock extension over the given beans, with the
 * given MicroProfile Config. Closing it shuts the container down and releases the config.
 */
public final class Deployment implements AutoCloseable {

    private final WeldContainer container;
    private final Config config;

    private Deployment(WeldContainer container, Config config) {
        this.container = container;
        this.config = config;
    }

    public static Deployment start(Map<String, String> properties, Class<?>... beans) {
        return start(null, properties, beans);
    }

    /**
     * A deployment beside others in the same JVM, as a second application would be: its own container {@code id},
     * so its own Padlock engine and Redis client. Started after the others, it takes over their config for the
     * thread's class loader (they read theirs when they started).
     */
    public static Deployment start(String id, Map<String, String> properties, Class<?>... beans) {
        return start(id, properties, EngineOptions.DEFAULTS, beans);
    }

    /**
     * As {@link #start(String, Map, Class[])}, with rules of the engine switched off ({@code id} may be {@code null}):
     * for the control of a test that shows what a rule prevents.
     */
    public static Deployment start(
            String id, Map<String, String> properties, EngineOptions options, Class<?>... beans) {
        Config config = installConfig(properties);
        try {
            Weld weld = WeldInitiator.createWeld();
            if (id != null) {
                weld.containerId(id);
            }
            WeldContainer container = weld.addExtension(new PadlockExtension(options))
                    .addBeanClasses(beans)
                    .initialize();
            return new Deployment(container, config);
        } catch (RuntimeException e) {
            ConfigProviderResolver.instance().releaseConfig(config);
            throw e;
        }
    }

    /** A deployment that is expected to fail: returns what the container threw. */
    public static RuntimeException failing(Map<String, String> properties, Class<?>... beans) {
        try (Deployment d = start(properties, beans)) {
            throw new AssertionError("the deployment was expected to fail but started");
        } catch (RuntimeException e) {
            return e;
        }
    }

    public static Config installConfig(Map<String, String> properties) {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        resolver.releaseConfig(resolver.getConfig(loader));
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(new HashMap<>(properties), "test", 500))
                .build();
        resolver.registerConfig(config, loader);
        return config;
    }

    public <T> T bean(Class<T> type, Annotation... qualifiers) {
        return container.select(type, qualifiers).get();
    }

    @Override
    public void close() {
        try {
            container.shutdown();
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }
}
