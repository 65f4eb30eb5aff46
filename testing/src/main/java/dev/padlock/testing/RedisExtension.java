package dev.padlock.testing;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Injects {@link RedisServer}, {@link RedisCluster} and {@link RedisSentinel} into constructors and
 * lifecycle and test methods. Each is started on first request and shared by the whole test class,
 * nested classes included, then closed after the class; a cluster is shared per shape
 * ({@link ClusterNodes}). When no Redis can be had, resolution fails with
 * {@link NoRedisAvailableException}: the test fails, it is never skipped.
 *
 * <p>A {@link RedisProxy} to the class's {@link RedisServer} is per test instead, so that a fault one test leaves
 * behind never reaches the next: each test gets a new one, shared with its {@code @BeforeEach} and
 * {@code @AfterEach} methods and closed after it, pass or fail. Asked for in a {@code @BeforeAll} method, one
 * proxy serves the whole class.
 */
public final class RedisExtension implements ParameterResolver, AfterEachCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisExtension.class);
    private static final String RESOURCES = "resources";
    private static final String PROXY = "proxy";
    private static final Set<Class<?>> SUPPORTED =
            Set.of(RedisServer.class, RedisCluster.class, RedisSentinel.class, RedisProxy.class);

    public RedisExtension() {}

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return SUPPORTED.contains(parameterContext.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        ClassResources resources = outermostClassContext(extensionContext)
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(RESOURCES, key -> new ClassResources(), ClassResources.class);
        Class<?> type = parameterContext.getParameter().getType();
        if (type == RedisServer.class) {
            return resources.get("server", RedisServer.class, Redis::startServer);
        }
        if (type == RedisProxy.class) {
            // The store of a test's context is its own, so each test gets a new proxy; a @BeforeAll one is inherited.
            return extensionContext
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(
                            PROXY,
                            key -> RedisProxy.to(resources.get("server", RedisServer.class, Redis::startServer)),
                            RedisProxy.class);
        }
        if (type == RedisSentinel.class) {
            return resources.get("sentinel", RedisSentinel.class, Redis::startSentinel);
        }
        ClusterNodes shape = parameterContext
                .findAnnotation(ClusterNodes.class)
                .or(() -> classAnnotation(extensionContext))
                .orElse(null);
        int masters = shape == null ? 3 : shape.masters();
        int replicasPerMaster = shape == null ? 0 : shape.replicasPerMaster();
        return resources.get(
                "cluster " + masters + "x" + replicasPerMaster,
                RedisCluster.class,
                () -> Redis.startCluster(masters, replicasPerMaster));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        closeProxy(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeProxy(context);
        // Nested classes share their outer class's servers, so only the outermost class closes them.
        if (outermostClassContext(context) != context) {
            return;
        }
        ClassResources resources = context.getStore(NAMESPACE).remove(RESOURCES, ClassResources.class);
        if (resources != null) {
            resources.close();
        }
    }

    private static void closeProxy(ExtensionContext context) {
        // remove() leaves the stores of enclosing contexts alone, so a test never closes its class's proxy.
        RedisProxy proxy = context.getStore(NAMESPACE).remove(PROXY, RedisProxy.class);
        if (proxy != null) {
            proxy.close();
        }
    }

    private static ExtensionContext outermostClassContext(ExtensionContext context) {
        ExtensionContext outermost = context;
        for (ExtensionContext current = context;
                current != null;
                current = current.getParent().orElse(null)) {
            if (current.getTestClass().isPresent() && current.getTestMethod().isEmpty()) {
                outermost = current;
            }
        }
        return outermost;
    }

    private static Optional<ClusterNodes> classAnnotation(ExtensionContext context) {
        for (Class<?> type = context.getTestClass().orElse(null); type != null; type = type.getEnclosingClass()) {
            Optional<ClusterNodes> found = AnnotationSupport.findAnnotation(type, ClusterNodes.class);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }
}
