package dev.padlock.testing;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
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
 */
public final class RedisExtension implements ParameterResolver, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisExtension.class);
    private static final String RESOURCES = "resources";
    private static final Set<Class<?>> SUPPORTED = Set.of(RedisServer.class, RedisCluster.class, RedisSentinel.class);

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
    public void afterAll(ExtensionContext context) {
        // Nested classes share their outer class's servers, so only the outermost class closes them.
        if (outermostClassContext(context) != context) {
            return;
        }
        ClassResources resources = context.getStore(NAMESPACE).remove(RESOURCES, ClassResources.class);
        if (resources != null) {
            resources.close();
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
