package dev.padlock.core;

import java.util.function.Supplier;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/**
 * The {@code RedissonClient} Padlock creates itself when the application has none: created on first use,
 * shut down with the container.
 */
public final class ManagedClient implements Supplier<RedissonClient>, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ManagedClient.class.getName());

    private final RedisConnectionSettings settings;
    private final ClassLoader loader;
    private volatile RedissonClient client;
    private boolean closed;

    public ManagedClient(RedisConnectionSettings settings, ClassLoader loader) {
        this.settings = settings;
        this.loader = loader;
    }

    @Override
    public RedissonClient get() {
        RedissonClient c = client;
        return c != null ? c : create();
    }

    private synchronized RedissonClient create() {
        if (client == null) {
            if (closed) {
                throw new IllegalStateException("Padlock's Redis client was shut down with its container");
            }
            LOG.log(System.Logger.Level.INFO, () -> "Padlock connects to Redis: " + settings.describe());
            client = Redisson.create(settings.toRedissonConfig(loader));
        }
        return client;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.shutdown();
            client = null;
        }
    }
}
