package dev.padlock.core.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The {@code RedissonClient} Padlock creates itself when the application has none, shut down with the
 * container.
 *
 * <p>The client is built on a thread of its own, never on a caller's: {@code Redisson.create} interrupted
 * half-way leaks its event loops and connections (measured: thousands of threads and sockets within seconds
 * when callers were interrupted while it connected), and a caller's interrupt is about its own call anyway.
 * One connection attempt at a time; callers that may block wait for it, interruptibly, and callers that must not
 * (an event loop) go on from {@link #ready()}.
 */
public final class ManagedClient implements RedisClientSource, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ManagedClient.class.getName());

    private final RedisConnectionSettings settings;
    private final ClassLoader loader;
    private final UnaryOperator<Config> adjust;
    private final Object guard = new Object();
    private volatile RedissonClient client;
    /** Why the last attempt failed, while no client is connected; for the readiness check, which must not wait. */
    private volatile Throwable lastFailure;
    /** Told of each client once it is connected (the server check); on the connecting thread, so it must not block. */
    private volatile Consumer<RedissonClient> connected = c -> {};

    private CompletableFuture<RedissonClient> connecting; // guarded by guard
    private boolean closed; // guarded by guard

    public ManagedClient(RedisConnectionSettings settings, ClassLoader loader) {
        this(settings, loader, UnaryOperator.identity());
    }

    /**
     * For the client's own tests: {@code adjust} changes the Redisson configuration the settings give before the
     * client is created (shorter timeouts, so that a failure to connect is seen in a second, not in Redisson's six).
     */
    ManagedClient(RedisConnectionSettings settings, ClassLoader loader, UnaryOperator<Config> adjust) {
        this.settings = settings;
        this.loader = loader;
        this.adjust = adjust;
    }

    /**
     * @throws IllegalStateException when no client can be had; its cause is an {@link InterruptedException}
     *     when the caller was interrupted while waiting
     */
    @Override
    public RedissonClient get() {
        RedissonClient c = client;
        if (c != null) {
            return c;
        }
        try {
            return connect().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Padlock connected to Redis", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConnectionFailedException failed) {
                throw new ConnectionFailedException(failed);
            }
            throw new IllegalStateException(
                    "Padlock could not connect to Redis (" + settings.describe() + "): " + cause.getMessage(), cause);
        }
    }

    @Override
    public RedissonClient getNow() {
        return client;
    }

    @Override
    public CompletableFuture<RedissonClient> ready() {
        RedissonClient c = client;
        // A copy: a caller bounding its own wait (orTimeout) must not fail the attempt every caller shares.
        return c != null ? CompletableFuture.completedFuture(c) : connect().copy();
    }

    /**
     * Has {@code listener} told of each client this creates, once connected; set it before connecting. It runs on the
     * connecting thread, before those waiting for the client hear of it, and must return at once; what it throws is
     * ignored.
     */
    public void whenConnected(Consumer<RedissonClient> listener) {
        this.connected = listener;
    }

    /**
     * Starts connecting now, so the first locked call does not pay for it; the future (the caller's own) completes
     * with this attempt, for a start-up that waits for it.
     */
    public CompletableFuture<RedissonClient> connectInBackground() {
        CompletableFuture<RedissonClient> attempt = connect();
        attempt.whenComplete((c, failure) -> {
            if (failure != null && !isClosed()) { // an application stopped while connecting has nothing to say
                LOG.log(
                        System.Logger.Level.WARNING,
                        () -> (failure instanceof ConnectionFailedException
                                        ? failure.getMessage()
                                        : "Padlock could not connect to Redis (" + settings.describe() + "): "
                                                + failure.getMessage() + ".")
                                + " Locked calls fail with LockNotAcquiredException until it can; each call tries"
                                + " again.");
            }
        });
        return attempt.copy();
    }

    private CompletableFuture<RedissonClient> connect() {
        synchronized (guard) {
            if (closed) {
                return CompletableFuture.failedFuture(
                        new IllegalStateException("Padlock's Redis client was shut down with its container"));
            }
            if (connecting == null || connecting.isCompletedExceptionally()) {
                CompletableFuture<RedissonClient> attempt = new CompletableFuture<>();
                connecting = attempt;
                Thread connector = new Thread(() -> create(attempt), "padlock-redis-connect");
                connector.setDaemon(true);
                connector.setContextClassLoader(loader);
                connector.start();
            }
            return connecting;
        }
    }

    private void create(CompletableFuture<RedissonClient> attempt) {
        LOG.log(System.Logger.Level.INFO, () -> "Padlock connects to Redis: " + settings.describe());
        RedissonClient created;
        try {
            created = Redisson.create(adjust.apply(RedissonConfigs.build(settings, loader)));
        } catch (Throwable t) {
            // Redisson's own text only says "Unable to connect to Redis server: host:port": say why, and what to
            // check. A config file's problem is worded already; an Error (a class missing from the deployment) is
            // no connection failure at all.
            Throwable failed = t instanceof RedissonConfigs.ConfigFileException || t instanceof Error
                    ? t
                    : new ConnectionFailedException(settings.describe(), ConnectionFailure.of(t, settings), t);
            lastFailure = failed;
            attempt.completeExceptionally(failed);
            return;
        }
        synchronized (guard) {
            if (closed) {
                created.shutdown();
                attempt.completeExceptionally(
                        new IllegalStateException("Padlock's Redis client was shut down with its container"));
                return;
            }
            client = created;
            lastFailure = null;
        }
        try {
            connected.accept(created);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "a listener of Padlock's connection failed", e);
        }
        attempt.complete(created);
    }

    private boolean isClosed() {
        synchronized (guard) {
            return closed;
        }
    }

    RedisConnectionSettings settings() {
        return settings;
    }

    /** Why the last connection attempt failed, or {@code null} when none has failed since the last success. */
    Throwable lastFailure() {
        return lastFailure;
    }

    @Override
    public void close() {
        RedissonClient c;
        synchronized (guard) {
            closed = true;
            c = client;
            client = null;
        }
        if (c != null) {
            c.shutdown();
        }
    }
}
