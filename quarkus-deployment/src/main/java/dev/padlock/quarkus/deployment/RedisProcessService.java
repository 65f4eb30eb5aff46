package dev.padlock.quarkus.deployment;

import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import io.quarkus.deployment.builditem.Startable;
import java.nio.file.Path;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Dev Services without containers: a {@code redis-server} child process on a free loopback port, no
 * persistence, its own temporary directory. Launched through {@code padlock-testing}, which also stops it at
 * JVM exit and, through a watcher shell, when the JVM is killed.
 */
final class RedisProcessService implements Startable {

    private static final Logger LOG = Logger.getLogger(RedisProcessService.class);

    private final Optional<Path> binary;
    private RedisServer server;

    RedisProcessService(Optional<Path> binary) {
        this.binary = binary;
    }

    @Override
    public void start() {
        server = Redis.startLocalServer(binary);
        LOG.infof("Padlock Dev Services started a local redis-server process at %s", server.uri());
    }

    @Override
    public String getConnectionInfo() {
        return server.uri();
    }

    @Override
    public String getContainerId() {
        return null; // a process, not a container
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            LOG.infof("Padlock Dev Services stopped the redis-server at %s", server.uri());
        }
    }
}
