package dev.padlock.testing;

import java.io.UncheckedIOException;
import java.util.List;

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

    static RedisServer startServer(RedisBinary binary) {
        return RedisServer.of(startProcess(binary, "redis-server", binary::standaloneArguments));
    }

    static ServerProcess startProcess(RedisBinary binary, String role, ServerProcess.Arguments arguments) {
        ServerProcess process = new ServerProcess(binary, role, false, arguments);
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
