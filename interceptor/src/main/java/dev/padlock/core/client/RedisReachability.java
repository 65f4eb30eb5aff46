package dev.padlock.core.client;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.BaseRedisNodes;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * Whether the client Padlock locks with reaches Redis now: the readiness checks of the CDI and Quarkus integrations
 * both ask this, and turn the {@link Result} into their health API's answer. Kept free of any health API, so the
 * engine never needs one.
 *
 * <p>A check never waits for Padlock's own client to connect (it answers "connecting" instead), and pings every
 * node for at most {@link #TIMEOUT}. It never shows the password: the address is
 * {@link RedisConnectionSettings#describe()}, and a failure is worded by {@link ConnectionFailure}, which strikes
 * out any user info of an address and the configured password.
 */
public final class RedisReachability {

    /**
     * How long the nodes may take to answer PING. A healthy Redis answers in a millisecond or so, so 2 s leaves room
     * for a GC pause or a busy node without calling it down, yet stays well below the several seconds a health
     * endpoint may take before an orchestrator gives up on the probe. Fixed rather than configurable: a longer
     * bound only delays the same verdict, and a probe's own timeout is where operators already tune this.
     */
    public static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** The name of Padlock's readiness check on every runtime. */
    public static final String CHECK_NAME = "padlock";

    /** What the check shows as the address when the application provides the client. */
    public static final String APPLICATION_CLIENT = "the application's own RedissonClient";

    /**
     * A readiness answer, plain so that each integration can render it its own way.
     *
     * @param up whether every node answered PING within {@link #TIMEOUT}
     * @param address where Padlock connects, as {@link RedisConnectionSettings#describe()} says (never a password),
     *     or {@link #APPLICATION_CLIENT}
     * @param reason why it is down: {@code "connecting"}, or the cause and the keys to check, as
     *     {@link ConnectionFailure#summary()} words them; {@code null} when up
     */
    public record Result(boolean up, String address, String reason) {

        /** What a health check shows beside its status: the address, and the reason when down. */
        public Map<String, Object> data() {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("address", address);
            if (reason != null) {
                data.put("reason", reason);
            }
            return Collections.unmodifiableMap(data);
        }
    }

    private final String address;
    /** Padlock's settings, which name the keys a failure's fix points at; {@code null} for the application's client. */
    private final RedisConnectionSettings settings;

    private final Supplier<CompletableFuture<RedissonClient>> client;

    private RedisReachability(
            String address, RedisConnectionSettings settings, Supplier<CompletableFuture<RedissonClient>> client) {
        this.address = address;
        this.settings = settings;
        this.client = client;
    }

    /**
     * Padlock's own client. A check while it is not connected starts a new attempt when the last one failed: with
     * readiness down, no locked call may arrive to do so, and the application would never become ready.
     */
    public static RedisReachability of(ManagedClient managed) {
        RedisConnectionSettings settings = managed.settings();
        return new RedisReachability(settings.describe(), settings, () -> {
            RedissonClient connected = managed.getNow();
            if (connected != null) {
                return CompletableFuture.completedFuture(connected);
            }
            Throwable failed = managed.lastFailure();
            CompletableFuture<RedissonClient> attempt = managed.ready();
            if (failed != null && !attempt.isDone()) {
                return CompletableFuture.failedFuture(failed);
            }
            return attempt;
        });
    }

    /** The application's own client, looked up when the check runs. */
    public static RedisReachability ofApplicationClient(Supplier<RedissonClient> client) {
        return new RedisReachability(APPLICATION_CLIENT, null, () -> {
            try {
                return CompletableFuture.completedFuture(client.get());
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    /** Pings every node, for at most {@link #TIMEOUT}; never waits for a connection. */
    public Result check() {
        CompletableFuture<RedissonClient> ready = client.get();
        if (!ready.isDone()) {
            return down("connecting");
        }
        try {
            RedissonClient redisson = ready.join();
            if (nodes(redisson.getConfig(), redisson).pingAll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                return new Result(true, address, null);
            }
            return down("not every Redis node answered PING within " + TIMEOUT.toSeconds() + " s");
        } catch (RuntimeException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            ConnectionFailure failure = cause instanceof ConnectionFailedException failed
                    ? failed.failure()
                    : ConnectionFailure.of(cause, settings);
            return down(failure.summary());
        }
    }

    /** Redisson wants the topology named; the client's own configuration tells it. */
    private static BaseRedisNodes nodes(Config config, RedissonClient redisson) {
        if (config.isClusterConfig()) {
            return redisson.getRedisNodes(RedisNodes.CLUSTER);
        }
        if (config.isSentinelConfig()) {
            return redisson.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE);
        }
        if (config.isSingleConfig()) {
            return redisson.getRedisNodes(RedisNodes.SINGLE);
        }
        return redisson.getRedisNodes(RedisNodes.MASTER_SLAVE);
    }

    private Result down(String reason) {
        return new Result(false, address, reason);
    }
}
