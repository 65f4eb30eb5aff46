package dev.padlock.testkit;

import dev.padlock.cdi.PadlockExtension;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.WeldInitiator;

/**
 * An application under test: a Weld 6 container with Padlock's extension over the given beans, configured by the
 * given MicroProfile Config properties. Closing it shuts the container down and releases the config.
 */
final class Deployment implements AutoCloseable {

    private final WeldContainer container;
    private final Config config;

    private Deployment(WeldContainer container, Config config) {
        this.container = container;
        this.config = config;
    }

    static Deployment start(Map<String, String> properties, Class<?>... beans) {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        resolver.releaseConfig(resolver.getConfig(loader));
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(new HashMap<>(properties), "test", 500))
                .build();
        resolver.registerConfig(config, loader);
        try {
            WeldContainer container = WeldInitiator.createWeld()
                    .addExtension(new PadlockExtension())
                    .addBeanClasses(beans)
                    .initialize();
            return new Deployment(container, config);
        } catch (RuntimeException e) {
            resolver.releaseConfig(config);
            throw e;
        }
    }

    <T> T bean(Class<T> type) {
        return container.select(type).get();
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
