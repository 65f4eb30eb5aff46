package dev.padlock.testing;

import dev.padlock.redisserver.RedisReplyException;
import dev.padlock.redisserver.RespConnection;
import dev.padlock.redisserver.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A running single Redis node: started by the harness (controllable: it can be stopped, killed and
 * restarted on the same port) or reached at an address given by the user or a container (not
 * controllable).
 *
 * <p>A little over 350 lines: it is the harness's one public handle on a server, so each fault a test may cause
 * (stop, kill, restart, pause, monitor, proxy) is a method here, each a few lines over {@code ServerProcess}.
 */
public final class RedisServer implements AutoCloseable {
    private static final int DEFAULT_PORT = 6379;

    private final String uri;
    private final String host;
    private final int port;
    private final ServerProcess process;
    private final String username;
    private final String password;
    private final String notControllableBecause;
    private final AutoCloseable release;
    private final int tlsPort;
    /** The proxies to this server still open ({@link RedisProxy}), closed with it. */
    private final Set<AutoCloseable> proxies = ConcurrentHashMap.newKeySet();

    private boolean closed;

    private RedisServer(
            String uri,
            String host,
            int port,
            ServerProcess process,
            String username,
            String password,
            String notControllableBecause,
            AutoCloseable release) {
        this(uri, host, port, process, username, password, notControllableBecause, release, -1);
    }

    private RedisServer(
            String uri,
            String host,
            int port,
            ServerProcess process,
            String username,
            String password,
            String notControllableBecause,
            AutoCloseable release,
            int tlsPort) {
        this.uri = uri;
        this.host = host;
        this.port = port;
        this.process = process;
        this.username = username;
        this.password = password;
        this.notControllableBecause = notControllableBecause;
        this.release = release;
        this.tlsPort = tlsPort;
    }

    /** Wraps a process that is already up. */
    static RedisServer of(ServerProcess process) {
        String host = ServerProcess.HOST;
        int port = process.port();
        return new RedisServer("redis://" + host + ":" + port, host, port, process, null, null, null, null);
    }

    /**
     * Wraps a process started with {@code options}: the harness's own commands authenticate with its
     * {@link ServerOptions#requirePass password}; {@code tlsPort} is -1 without TLS.
     */
    static RedisServer of(ServerProcess process, ServerOptions options, int tlsPort) {
        String host = ServerProcess.HOST;
        int port = process.port();
        return new RedisServer(
                "redis://" + host + ":" + port, host, port, process, null, options.password(), null, null, tlsPort);
    }

    static RedisServer atAddress(String address, String origin) {
        URI parsed;
        try {
            parsed = new URI(address.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "Not a Redis address: '" + address + "' (from " + origin + "); expected redis://host:port", e);
        }
        String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("redis") || parsed.getHost() == null) {
            throw new IllegalArgumentException("Not a usable Redis address: '" + address + "' (from " + origin
                    + "); expected redis://host:port (TLS, rediss://, is not supported by the test harness)");
        }
        String username = null;
        String password = null;
        String userInfo = parsed.getUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = userInfo;
            } else {
                username = colon == 0 ? null : userInfo.substring(0, colon);
                password = userInfo.substring(colon + 1);
            }
        }
        int port = parsed.getPort() < 0 ? DEFAULT_PORT : parsed.getPort();
        return new RedisServer(
                address.trim(),
                parsed.getHost(),
                port,
                null,
                username,
                password,
                "it is the external Redis at " + address.trim() + " given by " + origin
                        + ". To run this test, leave padlock.test.redis / PADLOCK_TEST_REDIS unset and install"
                        + " redis-server or point -Dpadlock.test.redis-server=/path/to/redis-server",
                null);
    }

    static RedisServer inContainer(String host, int port, String image, AutoCloseable container) {
        return new RedisServer(
                "redis://" + host + ":" + port,
                host,
                port,
                null,
                null,
                null,
                "it runs in a Testcontainers container (" + image + "), which the harness cannot kill or restart"
                        + " on the same port. To run this test, install redis-server or point"
                        + " -Dpadlock.test.redis-server=/path/to/redis-server",
                container);
    }

    public String uri() {
        return uri;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /**
     * The TLS port of a server started with {@link ServerOptions#tls()}, beside the plain {@link #port()}.
     *
     * @throws IllegalStateException when the server has no TLS port
     */
    public int tlsPort() {
        if (tlsPort < 0) {
            throw new IllegalStateException(this + " has no TLS port: start it with ServerOptions.tls()");
        }
        return tlsPort;
    }

    /** {@code rediss://127.0.0.1:<tlsPort()>}. */
    public String tlsUri() {
        return "rediss://" + host + ":" + tlsPort();
    }

    /**
     * A PKCS12 trust store (password {@link ServerOptions#TRUST_STORE_PASSWORD}) holding the self-signed certificate
     * of the {@link #tlsPort() TLS port}; it lives in the server's directory and goes with {@link #close()}.
     */
    public Path tlsTrustStore() {
        tlsPort();
        return SelfSignedCertificate.trustStoreIn(process.directory());
    }

    /** Whether stop, kill, start, restart and pid work: only for a redis-server the harness started. */
    public boolean isControllable() {
        return process != null;
    }

    /** SHUTDOWN NOSAVE, then waits until the process has exited and the port refuses connections. */
    public void stop() {
        controllable("stop()").stop();
    }

    /** SIGKILL of the redis-server process; waits until it is gone and the port refuses connections. */
    public void kill() {
        controllable("kill()").kill();
    }

    /** Starts again on the same port, with no data, and waits until it answers. No-op while running. */
    public void start() {
        controllable("start()").start();
    }

    public void restart() {
        ServerProcess controlled = controllable("restart()");
        controlled.stop();
        controlled.start();
    }

    public boolean isRunning() {
        if (process != null) {
            return process.isRunning();
        }
        try {
            return "PONG".equals(call("PING"));
        } catch (IOException | RedisReplyException e) {
            return false;
        }
    }

    public void flushAll() {
        command("FLUSHALL");
    }

    /** A snapshot of INFO commandstats; subtract two with {@link CommandStats#minus}. */
    public CommandStats commandStats() {
        Object reply = command("INFO", "commandstats");
        return CommandStats.parse(reply == null ? "" : reply.toString());
    }

    /**
     * {@link #commandStats()} once two reads 20 ms apart agree, keep-alive PINGs aside: commands a client sent
     * without waiting for them (Redisson's unlock-latch DEL) may still be on their way when a call returns. Gives up
     * after about two seconds and returns the last read.
     */
    public CommandStats settledCommandStats() throws InterruptedException {
        CommandStats last = commandStats();
        for (int i = 0; i < 100; i++) {
            Thread.sleep(20);
            CommandStats now = commandStats();
            CommandStats change = now.minus(last);
            if (change.total() == change.calls("ping")) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /**
     * Sends one command on a fresh connection. Replies come back as String (simple and bulk strings),
     * Long, List of Object, or null; an error reply is thrown as {@link RedisReplyException}.
     */
    public Object command(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("command() needs at least the command name");
        }
        try {
            return call(args);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot send " + args[0] + " to " + uri + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts reading the server's {@code MONITOR} log on a connection of its own: every command the server runs from
     * now on, those of Lua scripts included. Close it, also when the test fails (try-with-resources).
     */
    public RedisMonitor monitor() {
        try {
            return RedisMonitor.start(uri, port(), marker -> command("ECHO", marker), connect());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start MONITOR on " + uri + ": " + e.getMessage(), e);
        }
    }

    /** The redis-server process id: the current one, or after stop/kill the last one. */
    public long pid() {
        return controllable("pid()").pid();
    }

    /**
     * Stops a started server and removes its directory; releases a container; closes the {@link RedisProxy proxies}
     * to it that are still open. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        List<AutoCloseable> open = new ArrayList<>(proxies);
        proxies.clear();
        Closing.closeAll(open, null);
        if (process != null) {
            process.close();
        } else if (release != null) {
            try {
                release.close();
            } catch (Exception e) {
                throw new IllegalStateException("Cannot release " + uri + ": " + e.getMessage(), e);
            }
        }
    }

    synchronized void register(AutoCloseable proxy) {
        if (closed) {
            throw new IllegalStateException("Cannot start a proxy to " + this + ": it has been closed");
        }
        proxies.add(proxy);
    }

    void unregister(AutoCloseable proxy) {
        proxies.remove(proxy);
    }

    ServerProcess process() {
        return process;
    }

    private Object call(String... args) throws IOException {
        try (RespConnection connection = connect()) {
            return connection.send(args);
        }
    }

    /** A new connection, authenticated as the harness's own commands are. */
    private RespConnection connect() throws IOException {
        RespConnection connection = RespConnection.open(host, port);
        try {
            if (password != null) {
                if (username != null) {
                    connection.send("AUTH", username, password);
                } else {
                    connection.send("AUTH", password);
                }
            }
            return connection;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private ServerProcess controllable(String operation) {
        if (process == null) {
            throw new UnsupportedOperationException(operation + " needs a redis-server binary that the test harness"
                    + " starts itself, but " + notControllableBecause + ".");
        }
        return process;
    }

    @Override
    public String toString() {
        return "RedisServer[" + uri + (process == null ? ", not controllable" : ", pid " + process.pid()) + "]";
    }
}
