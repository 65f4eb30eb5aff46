package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.PadlockExtension;
import dev.padlock.core.engine.LockedInterceptor;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Stereotype;
import jakarta.inject.Inject;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/**
 * Weld SE with {@code disableDiscovery()} loads no service-provider portable extension, so an application that
 * forgets {@code addExtension(new PadlockExtension())} would run its {@code @Locked} methods without any lock. Built
 * here exactly as such an application builds its container (plain {@code new Weld()}, its own bean classes): without
 * the extension it refuses to start and names the fix; with it, the same container locks on Redis.
 */
@ExtendWith(RedisExtension.class)
class DisabledDiscoveryTest {

    static final AtomicInteger RUNS = new AtomicInteger();
    static RedisServer redis;

    @ApplicationScoped
    public static class Inventory {
        @Locked(value = "stock", key = "{0}")
        public List<Object> reserve(String sku) {
            RUNS.incrementAndGet();
            return heldKeys();
        }
    }

    @ApplicationScoped
    @Locked("reports")
    public static class Reports {
        public void daily() {}
    }

    public static class MonthlyReports extends Reports {}

    @Stereotype
    @Locked("batch")
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    public @interface Batch {}

    @ApplicationScoped
    @Batch
    public static class Nightly {
        public void run() {}
    }

    /** Uses Padlock without any {@code @Locked} of its own: its LockContext would have no bean. */
    @ApplicationScoped
    public static class Ledger {
        @Inject
        LockContext lock;
    }

    /** An application of its own that has nothing of Padlock but its jar on the class path. */
    @ApplicationScoped
    public static class OwnClient {
        @Produces
        @ApplicationScoped
        RedissonClient client() {
            org.redisson.config.Config config = new org.redisson.config.Config();
            config.useSingleServer().setAddress(redis.uri());
            return Redisson.create(config);
        }

        void close(@Disposes RedissonClient client) {
            client.shutdown();
        }
    }

    @ApplicationScoped
    public static class UsesOwnClient {
        @Inject
        RedissonClient client;

        long ping() {
            return client.getKeys().count();
        }
    }

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        RUNS.set(0);
    }

    static List<Object> heldKeys() {
        return (List<Object>) redis.command("KEYS", "padlock:*");
    }

    private WeldContainer start(Weld weld) {
        Config config = Deployment.installConfig(Map.of("padlock.redis.address", redis.uri()));
        opened.add(() -> ConfigProviderResolver.instance().releaseConfig(config));
        WeldContainer container = weld.initialize();
        opened.add(container::shutdown);
        return container;
    }

    private String failureOf(Weld weld) {
        Throwable failure = catchThrowable(() -> start(weld));
        assertThat(failure).as("the container was expected to refuse to start").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }

    @Test
    void withoutTheExtensionALockedMethodStopsTheStartNamingTheFix(RedisServer server) {
        redis = server;
        String failure = failureOf(new Weld().disableDiscovery().addBeanClass(Inventory.class));

        assertThat(failure)
                .contains("PadlockExtension did not run")
                .contains("@Locked on " + Inventory.class.getName() + "#reserve")
                .contains("addExtension(new PadlockExtension())")
                .contains("disableDiscovery()");
    }

    @Test
    void withTheExtensionTheSameContainerLocks(RedisServer server) {
        redis = server;
        WeldContainer app = start(new Weld()
                .disableDiscovery()
                .addExtension(new PadlockExtension())
                .addBeanClass(Inventory.class));

        assertThat(app.select(Inventory.class).get().reserve("A-42")).containsExactly("padlock:stock:A-42");
        assertThat(heldKeys()).isEmpty();
        assertThat(RUNS).hasValue(1);
    }

    @Test
    void withDiscoveryTheExtensionIsFoundAndTheCheckStaysQuiet(RedisServer server) {
        redis = server;
        WeldContainer app = start(new Weld().addBeanClass(Inventory.class));

        assertThat(app.select(Inventory.class).get().reserve("B-7")).containsExactly("padlock:stock:B-7");
    }

    @Test
    void classLevelInheritedAndStereotypeBindingsAreCaughtToo(RedisServer server) {
        redis = server;
        String failure = failureOf(new Weld().disableDiscovery().addBeanClasses(MonthlyReports.class, Nightly.class));

        assertThat(failure)
                .contains("@Locked on class " + MonthlyReports.class.getName())
                .contains("@Locked on class " + Nightly.class.getName())
                .contains("addExtension(new PadlockExtension())");
    }

    @Test
    void anInjectedPadlockTypeIsCaughtWithoutAnyLockedMethod(RedisServer server) {
        redis = server;
        String failure = failureOf(new Weld().disableDiscovery().addBeanClass(Ledger.class));

        assertThat(failure)
                .contains("LockContext injected into " + Ledger.class.getName())
                .contains("addExtension(new PadlockExtension())");
    }

    @Test
    void theInterceptorEnabledByHandIsNoSubstituteForTheExtension(RedisServer server) {
        redis = server;
        // Added as a bean class, the interceptor is enabled by its @Priority.
        String failure =
                failureOf(new Weld().disableDiscovery().addBeanClasses(Inventory.class, LockedInterceptor.class));

        assertThat(failure)
                .contains("PadlockExtension did not run")
                .contains("@Locked on " + Inventory.class.getName() + "#reserve")
                .doesNotContain("@Locked on class " + LockedInterceptor.class.getName())
                .contains("addExtension(new PadlockExtension())");
    }

    @Test
    void anApplicationThatDoesNotUsePadlockStartsWithoutIt(RedisServer server) {
        redis = server;
        WeldContainer app = start(new Weld().disableDiscovery().addBeanClasses(OwnClient.class, UsesOwnClient.class));

        assertThat(app.select(UsesOwnClient.class).get().ping()).isNotNegative();
    }
}
