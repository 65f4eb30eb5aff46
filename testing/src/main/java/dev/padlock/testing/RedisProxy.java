package dev.padlock.testing;

import dev.padlock.redisserver.Ports;
import dev.padlock.redisserver.RespConnection;
import dev.padlock.redisserver.Wait;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy in front of one {@link RedisServer}, for fault tests: a client configured with {@link #uri()} reaches
 * Redis through it, and the test can take Redis away from that client alone while every other client, connected
 * directly, keeps it.
 *
 * <pre>{@code
 * // a test method under RedisExtension: a new proxy for each test
 * void holderNoticesAPartition(RedisServer redis, RedisProxy proxy) {
 *     RedissonClient holder = clientAt(proxy.uri());                    // through the proxy
 *     RedissonClient other = clientAt(redis.uri());                     // directly
 *     ...
 *     proxy.cut();        // a partition, as the holder sees it: its commands time out
 *     ...
 *     proxy.restore();
 * }
 * }</pre>
 *
 * <p>Pure Java: a listening socket on a free loopback port (never a fixed one), and for each client connection the
 * proxy's own connection to Redis, served by daemon threads named {@code padlock-redis-proxy-<port>-accept},
 * {@code -<n>-to-redis} and {@code -<n>-to-client}. If the server is stopped or restarted, the proxy's clients see
 * their connections close as they would directly, and their new connections reach it again once it is back. It
 * forwards to a single node only: a cluster or sentinel hands its clients the nodes' real addresses, which would
 * bypass the proxy.
 *
 * <p>Thread-safe. Obtain one by declaring a {@code RedisProxy} parameter under {@link RedisExtension} (closed after
 * the test, also when it fails) or with {@link #to(RedisServer)} (closed by {@link #close()}, and at the latest with
 * its server). Once closed, the fault methods throw {@link IllegalStateException}.
 *
 * <p>About 500 lines, its own TCP relay: no maintained proxy reaches this machine's registries (Toxiproxy's server is a
 * Go binary, its Java client is not served), and its faults (cut, refuse, hold, restore) act on the same sockets.
 */
public final class RedisProxy implements AutoCloseable {
    private static final String HOST = "127.0.0.1";
    private static final int BUFFER_BYTES = 16 * 1024;

    private enum Mode {
        FORWARD("forwarding"),
        CUT("cut"),
        REFUSE("refusing");

        private final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    private final RedisServer target;
    private final String uri;
    private final int port;
    private final Set<Link> links = new LinkedHashSet<>();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    /** The thread accepting on the current listener; guarded by this. */
    private Thread acceptor;

    private ServerSocket listener;
    private Mode mode = Mode.FORWARD;
    private int writesUnderWay;
    private long accepted;
    private int nextLinkId;
    private boolean closed;

    private RedisProxy(RedisServer target, ServerSocket listener) {
        this.target = target;
        this.listener = listener;
        this.port = listener.getLocalPort();
        String userInfo = URI.create(target.uri()).getRawUserInfo();
        this.uri = "redis://" + (userInfo == null ? "" : userInfo + "@") + HOST + ":" + port;
    }

    /**
     * Starts a proxy to {@code redis} on a free loopback port, forwarding. The caller closes it; if it does not, it
     * is closed with {@code redis}.
     *
     * @throws IllegalStateException when {@code redis} has been closed
     */
    public static RedisProxy to(RedisServer redis) {
        Objects.requireNonNull(redis, "redis");
        ServerSocket listener = listen(0);
        RedisProxy proxy = new RedisProxy(redis, listener);
        Ports.claim(proxy.port);
        try {
            redis.register(proxy);
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        synchronized (proxy) {
            proxy.startAcceptor(listener);
        }
        return proxy;
    }

    /**
     * The address to configure a client with: {@code redis://127.0.0.1:<port>}, with the user and password of the
     * server's {@link RedisServer#uri()} when it has them.
     */
    public String uri() {
        return uri;
    }

    /** Always {@code 127.0.0.1}. */
    public String host() {
        return HOST;
    }

    /** The proxy's own port, chosen free when it started; the same for its whole life. */
    public int port() {
        return port;
    }

    /**
     * A network partition, as the proxy's clients see it: from now on no byte passes in either direction, yet every
     * connection stays open, so a client waiting for a reply sees its own timeout, never an error. New connections
     * are still accepted (the kernel completes the handshake) but reach Redis only after {@link #restore()}; Redis
     * does not see them until then. Bytes a peer sends during the cut are held, not dropped, and delivered in order
     * on {@link #restore()}, as TCP retransmission does once a short partition heals: a command sent during the cut
     * runs late, and its reply arrives late. A write already under way when {@code cut()} is called completes before
     * it returns; after that, nothing passes. Connections that end during the cut are closed towards the other side
     * only after the heal. No-op while cut; after {@link #refuse()}, listens again and holds what it accepts.
     */
    public void cut() {
        synchronized (this) {
            ensureOpen("cut()");
            if (mode == Mode.REFUSE) {
                listenAgain();
            }
            mode = Mode.CUT;
            long deadline = System.nanoTime() + Wait.TIMEOUT.toNanos();
            while (writesUnderWay > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("Cannot cut " + this + ": a forwarded write has not finished in "
                            + Wait.TIMEOUT.toSeconds() + " s, so a peer does not read what it is sent");
                }
                waitNanos(left);
            }
        }
    }

    /**
     * Ends a {@link #cut()} or a {@link #refuse()}: forwarding resumes, held bytes first. After a refusal, listens on
     * the same port again.
     *
     * @throws UncheckedIOException when, after a refusal, another process has taken the port meanwhile
     */
    public synchronized void restore() {
        ensureOpen("restore()");
        if (mode == Mode.REFUSE) {
            listenAgain();
        }
        mode = Mode.FORWARD;
        notifyAll();
    }

    /**
     * Resets every open connection, as a host or a middlebox that drops them does: the client sees "connection reset"
     * (or end of stream) on its next read or write, and so does Redis. Bytes held by a {@link #cut()} are dropped
     * with them. New connections are accepted as before, and held while cut.
     */
    public synchronized void reset() {
        ensureOpen("reset()");
        resetLinks();
        notifyAll();
    }

    /**
     * Redis is gone, as this proxy's clients see it: every open connection is reset as by {@link #reset()}, and the
     * port refuses new connections ("connection refused") until {@link #restore()} or {@link #cut()} listens on it
     * again.
     */
    public void refuse() {
        Thread accepting;
        synchronized (this) {
            ensureOpen("refuse()");
            mode = Mode.REFUSE;
            closeListener();
            resetLinks();
            notifyAll();
            accepting = acceptor;
        }
        // A thread blocked in accept() keeps the kernel's listening socket alive until it wakes, so the port would
        // still take connections for a moment: return once it is gone.
        if (accepting != null && accepting != Thread.currentThread()) {
            try {
                accepting.join(Wait.TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Client connections the proxy holds now: accepted and not yet ended. During a {@link #cut()} that includes
     * connections their client has closed, since the close, like any byte, reaches Redis only after the heal.
     */
    public synchronized int openConnections() {
        return links.size();
    }

    /** Client connections the proxy has accepted since it started, closed ones included. */
    public synchronized long acceptedConnections() {
        return accepted;
    }

    /**
     * Closes the listening socket, so the port refuses connections, resets every open connection, and waits for the
     * proxy's threads to end. Idempotent.
     */
    @Override
    public void close() {
        List<Thread> running;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            closeListener();
            resetLinks();
            notifyAll();
            running = new ArrayList<>(threads);
        }
        target.unregister(this);
        for (Thread thread : running) {
            if (thread != Thread.currentThread()) {
                try {
                    thread.join(Wait.TIMEOUT.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static ServerSocket listen(int port) {
        ServerSocket socket = null;
        try {
            socket = new ServerSocket();
            // Connections reset by the proxy leave no TIME_WAIT, but ones it closed normally do; they must not keep
            // restore() from listening on the same port again.
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket;
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException(
                    port == 0 ? "Cannot listen on any loopback port" : "Cannot listen on " + HOST + ":" + port, e);
        }
    }

    private void startAcceptor(ServerSocket socket) {
        acceptor = start("accept", () -> accept(socket));
    }

    private void accept(ServerSocket socket) {
        while (true) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // the listener was closed: refuse() or close()
            }
            Link link;
            synchronized (this) {
                if (closed || socket != listener) {
                    abort(client);
                    continue;
                }
                accepted++;
                link = new Link(++nextLinkId, client);
                links.add(link);
                start(link.id + "-to-redis", link::run);
            }
        }
    }

    private Thread start(String role, Runnable body) {
        Thread thread = new Thread(
                () -> {
                    try {
                        body.run();
                    } finally {
                        threads.remove(Thread.currentThread());
                    }
                },
                "padlock-redis-proxy-" + port + "-" + role);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
        return thread;
    }

    /** Waits while the proxy is cut; false once the link is gone. */
    private synchronized boolean awaitForwarding(Link link) {
        while (mode == Mode.CUT && !link.gone && !closed) {
            waitNanos(0);
        }
        return !link.gone && !closed;
    }

    /** Like {@link #awaitForwarding}, and counts the write that follows so that {@link #cut()} can wait for it. */
    private synchronized boolean beginWrite(Link link) {
        if (!awaitForwarding(link)) {
            return false;
        }
        writesUnderWay++;
        return true;
    }

    private synchronized void endWrite() {
        writesUnderWay--;
        notifyAll();
    }

    /** Called with the monitor held; 0 waits until notified. */
    private void waitNanos(long nanos) {
        try {
            if (nanos == 0) {
                wait();
            } else {
                wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting on " + this, e);
        }
    }

    private void listenAgain() {
        ServerSocket socket;
        try {
            socket = listen(port);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException(
                    "Cannot listen on " + HOST + ":" + port + " again: another process took the port while " + this
                            + " refused connections",
                    e.getCause());
        }
        listener = socket;
        startAcceptor(socket);
    }

    private synchronized void ended(Link link, boolean abruptly) {
        links.remove(link);
        link.close(abruptly);
        notifyAll();
    }

    private void resetLinks() {
        for (Link link : links) {
            link.close(true);
        }
        links.clear();
    }

    private void closeListener() {
        closeQuietly(listener);
        listener = null;
    }

    private synchronized void ensureOpen(String operation) {
        if (closed) {
            throw new IllegalStateException("Cannot " + operation + " " + this + ": it has been closed");
        }
    }

    private static void abort(Socket socket) {
        try {
            // SO_LINGER 0 makes close() send RST: the peer sees "connection reset", as when a host drops a connection.
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // Already closed: nothing left to reset.
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing is best effort: the socket is unusable either way.
        }
    }

    @Override
    public synchronized String toString() {
        return "RedisProxy[" + HOST + ":" + port + " -> " + target.host() + ":" + target.port() + ", "
                + (closed ? "closed" : mode.label) + ", " + links.size() + " open]";
    }

    /** One client connection and the proxy's own connection to Redis for it. */
    private final class Link {
        private final int id;
        private final Socket client;
        private Socket server;
        private boolean gone;

        Link(int id, Socket client) {
            this.id = id;
            this.client = client;
        }

        void run() {
            boolean abruptly = true;
            try {
                client.setTcpNoDelay(true);
                if (!awaitForwarding(this)) {
                    return;
                }
                Socket upstream = new Socket();
                synchronized (RedisProxy.this) {
                    if (gone) {
                        return;
                    }
                    server = upstream;
                }
                upstream.setTcpNoDelay(true);
                upstream.connect(
                        new InetSocketAddress(target.host(), target.port()), RespConnection.CONNECT_TIMEOUT_MILLIS);
                InputStream fromServer = upstream.getInputStream();
                OutputStream toClient = client.getOutputStream();
                start(id + "-to-client", () -> pump(fromServer, toClient));
                abruptly = !pump(client.getInputStream(), upstream.getOutputStream());
            } catch (IOException e) {
                // Redis is not there (or the client left): the client sees its connection reset.
            } finally {
                ended(this, abruptly);
            }
        }

        /** Copies until the source ends; true when it ended normally, so the other side gets a normal close too. */
        private boolean pump(InputStream in, OutputStream out) {
            byte[] buffer = new byte[BUFFER_BYTES];
            boolean normalEnd = false;
            try {
                while (true) {
                    int read;
                    try {
                        read = in.read(buffer);
                    } catch (IOException e) {
                        read = -2;
                    }
                    if (!beginWrite(this)) {
                        return false;
                    }
                    try {
                        if (read < 0) {
                            normalEnd = read == -1;
                            return normalEnd;
                        }
                        out.write(buffer, 0, read);
                        out.flush();
                    } finally {
                        endWrite();
                    }
                }
            } catch (IOException e) {
                return false;
            } finally {
                ended(this, !normalEnd);
            }
        }

        /** Called with the proxy's monitor held. */
        void close(boolean abruptly) {
            if (gone) {
                return;
            }
            gone = true;
            if (abruptly) {
                abort(client);
                if (server != null) {
                    abort(server);
                }
            } else {
                closeQuietly(client);
                closeQuietly(server);
            }
        }
    }
}
