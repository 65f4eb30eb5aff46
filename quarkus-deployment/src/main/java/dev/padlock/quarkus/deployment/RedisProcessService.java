package dev.padlock.quarkus.deployment;

import dev.padlock.redisserver.RedisBinary;
import dev.padlock.redisserver.ServerProcess;
import io.quarkus.deployment.builditem.Startable;
import java.nio.file.Path;
import org.jboss.logging.Logger;

/**
 * Dev Services without containers: a {@code redis-server} child process on a free loopback port, no
 * persistence, its own temporary directory. Launched through {@code padlock-redis-server}, which also stops it at
 * JVM exit and, through a watcher shell, when the JVM is killed.
 */
final class RedisProcessService implements Startable {

    private static final Logger LOG = Logger.getLogger(RedisProcessService.class);

    private final Path binary;
    private final String origin;
    private final String why;
    private ServerProcess server;

    /**
     * @param origin where {@code binary} came from, for messages: the property that names it, or the PATH
     * @param why why a process rather than a container, for the INFO line that says which Redis
     */
    RedisProcessService(Path binary, String origin, String why) {
        this.binary = binary;
        this.origin = origin;
        this.why = why;
    }

    @Override
    public void start() {
        server = ServerProcess.startStandalone(RedisBinary.of(binary, origin));
        LOG.infof(
                "Padlock Dev Services started a local redis-server process at %s (%s, from the %s): %s",
                server.uri(), binary, origin, why);
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
