package dev.padlock.testing;

import dev.padlock.redisserver.Ports;
import dev.padlock.redisserver.RedisBinary;
import dev.padlock.redisserver.RedisReplyException;
import dev.padlock.redisserver.ServerProcess;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts Redis for a test. Every call starts new processes which the caller must close; tests
 * normally let {@link RedisExtension} do that.
 */
public final class Redis {
    private static final Set<Path> ANNOUNCED = ConcurrentHashMap.newKeySet();

    private Redis() {}

    /** A single node: at the configured address, else from a redis-server binary, else in a container. */
    public static RedisServer startServer() {
        RedisSource source = RedisSource.detect(RedisSource.Need.SINGLE_NODE);
        switch (source.kind()) {
            case ADDRESS:
                return reach(source);
            case BINARY:
                return startServer(binary(source));
            default:
                return TestcontainersRedis.start(source.image());
        }
    }

    /**
     * A single node in a container ({@link #containerImage()}) started through Testcontainers, whatever else is
     * available: for tests of a container path (see {@link ContainerRuntime}). Closing it stops and removes the
     * container.
     *
     * @throws NoRedisAvailableException when Testcontainers is not on the class path or no container runtime answers
     */
    public static RedisServer startContainer() {
        if (!RedisSource.testcontainersPresent()) {
            throw new NoRedisAvailableException("A test asked for Redis in a container, but Testcontainers is not on"
                    + " the test class path: add org.testcontainers:testcontainers (test scope).");
        }
        if (!TestcontainersRedis.runtimeAnswers()) {
            throw new NoRedisAvailableException(
                    RedisSource.noContainerRuntime("A test asked for Redis in a container"));
        }
        return TestcontainersRedis.start(containerImage());
    }

    /**
     * The image the harness starts containers from: {@code -Dpadlock.test.redis-image} (or
     * {@code PADLOCK_TEST_REDIS_IMAGE}), {@code redis:7} when neither is set.
     */
    public static String containerImage() {
        return RedisSource.containerImage();
    }

    /**
     * A single node from a redis-server binary, started with {@code options}: a password, ACL users, a TLS port. An
     * address or a container cannot be set up so; without a binary this fails with {@link NoRedisAvailableException}.
     */
    public static RedisServer startServer(ServerOptions options) {
        RedisSource source = RedisSource.detect(RedisSource.Need.CONFIGURED_NODE);
        RedisBinary binary = binary(source);
        AtomicInteger tlsPort = new AtomicInteger(-1);
        ServerProcess process =
                ServerProcess.start(binary, "redis-server", options.password(), options.environment(), (port, dir) -> {
                    List<String> args = new ArrayList<>(binary.standaloneArguments(port, dir));
                    if (options.hasTls()) {
                        // A fresh one with each try: a lost race for the plain port may have been for this one.
                        tlsPort.set(Ports.free(false));
                    }
                    args.addAll(options.arguments(dir, tlsPort.get()));
                    return args;
                });
        return RedisServer.of(process, options, tlsPort.get());
    }

    /** Cluster-enabled nodes from a redis-server binary, with all 16384 slots spread over the masters. */
    public static RedisCluster startCluster(int masters, int replicasPerMaster) {
        RedisSource source = RedisSource.detect(RedisSource.Need.CLUSTER);
        return RedisCluster.start(binary(source), masters, replicasPerMaster);
    }

    /** One master, one replica and three sentinels (quorum 2) monitoring it as "mymaster". */
    public static RedisSentinel startSentinel() {
        RedisSource source = RedisSource.detect(RedisSource.Need.SENTINEL);
        return RedisSentinel.start(binary(source));
    }

    /**
     * The binary {@code source} names. The first one a JVM uses is announced on standard output, with its version, so
     * that a test log and report say which server the tests ran on (CI runs suites on Redis and on Valkey).
     */
    private static RedisBinary binary(RedisSource source) {
        RedisBinary binary = RedisBinary.of(source.binary(), source.origin());
        if (ANNOUNCED.add(binary.path())) {
            System.out.println("padlock-testing: servers from " + binary + ": " + binary.version());
        }
        return binary;
    }

    static RedisServer startServer(RedisBinary binary) {
        return RedisServer.of(ServerProcess.startStandalone(binary));
    }

    private static RedisServer reach(RedisSource source) {
        RedisServer server = RedisServer.atAddress(source.address(), source.origin());
        try {
            Object reply = server.command("PING");
            if (!"PONG".equals(reply)) {
                throw new IllegalStateException(
                        "The Redis at " + server.uri() + " (from " + source.origin() + ") answered PING with " + reply);
            }
        } catch (UncheckedIOException | RedisReplyException e) {
            throw new IllegalStateException(
                    "The Redis at " + server.uri() + " (from " + source.origin() + ") does not answer PING: "
                            + e.getMessage(),
                    e);
        }
        return server;
    }
}
