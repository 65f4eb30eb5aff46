package dev.padlock.testing;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts Redis for a test. Every call starts new processes which the caller must close; tests
 * normally let {@link RedisExtension} do that.
 */
public final class Redis {
    private Redis() {}

    /** A single node: at the configured address, else from a redis-server binary, else in a container. */
    public static RedisServer startServer() {
        RedisSource source = RedisSource.detect(RedisSource.Need.SINGLE_NODE);
        switch (source.kind()) {
            case ADDRESS:
                return reach(source);
            case BINARY:
                return startServer(RedisBinary.of(source.binary(), source.origin()));
            default:
                return TestcontainersRedis.start();
        }
    }

    /**
     * A single node from a redis-server binary, started with {@code options}: a password, ACL users, a TLS port. An
     * address or a container cannot be set up so; without a binary this fails with {@link NoRedisAvailableException}.
     */
    public static RedisServer startServer(ServerOptions options) {
        RedisSource source = RedisSource.detect(RedisSource.Need.CONFIGURED_NODE);
        RedisBinary binary = RedisBinary.of(source.binary(), source.origin());
        AtomicInteger tlsPort = new AtomicInteger(-1);
        ServerProcess process = startProcess(binary, "redis-server", options.password(), (port, dir) -> {
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
        return RedisCluster.start(RedisBinary.of(source.binary(), source.origin()), masters, replicasPerMaster);
    }

    /** One master, one replica and three sentinels (quorum 2) monitoring it as "mymaster". */
    public static RedisSentinel startSentinel() {
        RedisSource source = RedisSource.detect(RedisSource.Need.SENTINEL);
        return RedisSentinel.start(RedisBinary.of(source.binary(), source.origin()));
    }

    /**
     * A redis-server child process on a free loopback port, from {@code binary} or else the one on the
     * {@code PATH}, whatever a test would otherwise pick: for tools such as Padlock's Quarkus Dev Services. No
     * persistence, its own temporary directory, stopped on {@link RedisServer#close()}, on JVM exit, and by a
     * watcher if the JVM is killed.
     *
     * @throws NoRedisAvailableException when there is no such binary
     */
    public static RedisServer startLocalServer(Optional<Path> binary) {
        Optional<Path> found = binary.isPresent() ? binary : findServerOnPath();
        if (found.isEmpty()) {
            throw new NoRedisAvailableException("No redis-server binary: none on the PATH and none configured.");
        }
        if (!Files.isExecutable(found.get())) {
            throw new NoRedisAvailableException("Not an executable redis-server: " + found.get());
        }
        return startServer(RedisBinary.of(found.get(), binary.isPresent() ? "configured" : "PATH"));
    }

    /**
     * The {@code redis-server} executable on the {@code PATH}, the one {@link #startLocalServer} falls back to:
     * so a tool can tell beforehand whether it could start one.
     */
    public static Optional<Path> findServerOnPath() {
        return RedisSource.findOnPath(System.getenv("PATH"));
    }

    static RedisServer startServer(RedisBinary binary) {
        return RedisServer.of(startProcess(binary, "redis-server", binary::standaloneArguments));
    }

    static ServerProcess startProcess(RedisBinary binary, String role, ServerProcess.Arguments arguments) {
        return startProcess(binary, role, null, arguments);
    }

    private static ServerProcess startProcess(
            RedisBinary binary, String role, String password, ServerProcess.Arguments arguments) {
        ServerProcess process = new ServerProcess(binary, role, false, password, arguments);
        try {
            process.launch();
            process.awaitLaunched();
            return process;
        } catch (RuntimeException e) {
            closeAll(List.of(process), e);
            throw e;
        }
    }

    /** Closes everything, newest first, keeping the first failure as the one to report. */
    static void closeAll(List<?> closeables, RuntimeException primary) {
        RuntimeException failure = primary;
        for (int i = closeables.size() - 1; i >= 0; i--) {
            Object closeable = closeables.get(i);
            try {
                if (closeable instanceof ServerProcess) {
                    ((ServerProcess) closeable).close();
                } else if (closeable instanceof AutoCloseable) {
                    ((AutoCloseable) closeable).close();
                }
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException
                            ? (RuntimeException) e
                            : new IllegalStateException("Cannot close " + closeable, e);
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (primary == null && failure != null) {
            throw failure;
        }
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
