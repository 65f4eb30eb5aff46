package dev.padlock.cdi;

import java.lang.reflect.Method;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/**
 * The application's {@code RedissonClient} itself, rather than the client proxy a container hands out for a
 * normal-scoped bean ({@code @ApplicationScoped}): the engine reaches Redisson's own connections through it (to confirm
 * renewals with replicas, to see a server restart), which a proxy does not show. Weld (Payara, WildFly, Open Liberty,
 * Weld SE) marks its client proxies with {@code org.jboss.weld.proxy.WeldClientProxy}, which is read reflectively so
 * that the extension needs no Weld API; looked up once, when the client is first used. Any other object is returned
 * as it is.
 */
final class ContextualClient {

    private static final String WELD_CLIENT_PROXY = "org.jboss.weld.proxy.WeldClientProxy";

    private ContextualClient() {}

    static RedissonClient of(RedissonClient client) {
        if (client instanceof Redisson) {
            return client;
        }
        for (Class<?> type : client.getClass().getInterfaces()) {
            if (type.getName().equals(WELD_CLIENT_PROXY)) {
                try {
                    Method getMetadata = type.getMethod("getMetadata");
                    Object metadata = getMetadata.invoke(client);
                    Method instance = getMetadata.getReturnType().getMethod("getContextualInstance");
                    return instance.invoke(metadata) instanceof RedissonClient contextual ? contextual : client;
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return client; // a Weld without this API: the proxy still works, without what needs Redisson's own
                }
            }
        }
        return client;
    }
}
