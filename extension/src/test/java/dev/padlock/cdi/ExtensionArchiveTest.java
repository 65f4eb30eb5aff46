package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The extension's jar is a bean archive in which nothing is discovered ({@code META-INF/beans.xml}). Being an archive
 * puts the types the extension adds into a top-level archive of the deployment: on WildFly, a jar with an extension
 * and no beans.xml had them land in a synthetic archive that WildFly's own extensions cannot see, so its MicroProfile
 * Health never listed Padlock's readiness check ({@code WildFlyInventoryIT} in the Payara example runs it there).
 */
@ExtendWith(RedisExtension.class)
class ExtensionArchiveTest {

    @ApplicationScoped
    public static class Job {
        @Locked("job")
        public String run() {
            return "ran";
        }
    }

    @Test
    void theJarIsABeanArchiveThatExcludesAllItsClasses() throws IOException, URISyntaxException {
        Path classes = Path.of(PadlockExtension.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path beansXml = classes.resolve("META-INF/beans.xml");

        assertThat(beansXml).exists();
        String text = Files.readString(beansXml, StandardCharsets.UTF_8);
        assertThat(text)
                .contains("bean-discovery-mode=\"all\"")
                .containsPattern("<exclude\\s+name=\"" + PadlockExtension.class.getPackageName() + "\\.\\*\\*\"\\s*/>");
    }

    /**
     * With discovery on, as in a server, Weld SE scans this module's classes as the archive its beans.xml makes them
     * and loads the extension from {@code META-INF/services}: nothing of the jar becomes a bean by scanning, and the
     * readiness check, which the extension adds, is there once.
     */
    @Test
    void discoveryFindsNoneOfItsClassesAndTheReadinessCheckOnce(RedisServer redis) {
        Config config = Deployment.installConfig(Map.of("padlock.redis.address", redis.uri()));
        try (WeldContainer container =
                new Weld("discovery").addBeanClass(Job.class).initialize()) {
            BeanManager beans = container.getBeanManager();

            Set<Bean<?>> readiness = beans.getBeans(HealthCheck.class, Readiness.Literal.INSTANCE);
            assertThat(readiness).singleElement().extracting(Bean::getBeanClass).isEqualTo(PadlockReadinessCheck.class);
            List<Class<?>> fromThisJar = beans.getBeans(Object.class, Any.Literal.INSTANCE).stream()
                    .<Class<?>>map(Bean::getBeanClass)
                    .filter(type -> codeSource(type).equals(codeSource(PadlockExtension.class)))
                    .filter(type -> type != PadlockExtension.class)
                    .toList();
            assertThat(fromThisJar).containsExactly(PadlockReadinessCheck.class);
            assertThat(container.select(Job.class).get().run()).isEqualTo("ran");
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }

    /** The jar (here: the classes folder) a class was loaded from. */
    private static URL codeSource(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
