package dev.padlock.core.server;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.NodeType;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.connection.ConnectionListener;
import org.redisson.connection.ConnectionManager;
import org.redisson.connection.MasterSlaveEntry;

/**
 * What Padlock learns of the masters of the client it locks with, beside the locks, and tells their holders
 * ({@link Holders}):
 *
 * <ul>
 *   <li>which master came back as a new process: a Redis restarted without persistence has forgotten every lock, and
 *       its holders must hear of it when the server is back, not at their next renewal (up to a third of the lease
 *       later). Each master's {@code run_id} (from {@code INFO server}, new with every start of the process) is read
 *       when the watch starts; when Redisson says a master's connections dropped, the watch asks again every
 *       {@link #PROBE_MILLIS} on a client of its own until it answers, without waiting for Redisson's reconnection
 *       back-off (up to 10 s). Nothing is sent while the connections stay up.
 *   <li>whose wall clock jumped: each renewal's answer carries the server's {@code TIME} ({@link #clockRead}), compared
 *       with the previous answer of the same master against the engine's monotonic clock. No command is added.
 * </ul>
 */
public final class ServerWatch {

    private static final System.Logger LOG = System.getLogger(ServerWatch.class.getName());

    /** How often a master whose connections dropped is asked again: a restart is seen this long after it is back. */
    static final long PROBE_MILLIS = 200;

    /** The holders of locks, told what a master did; called on a Redisson thread, so it must not block. */
    public interface Holders {
        void restarted(Node node);

        /**
         * The master's wall clock jumped forward by about {@code nanos} (a lower bound): the keys it holds expire that
         * much earlier than their holders counted.
         */
        void clockJumped(Node node, long nanos);

        /** Whether any lock is held now: a master that dropped is asked again only while one is. */
        boolean anyHeld();
    }

    /** A master, as the watch saw it. */
    public static final class Node {
        private final InetSocketAddress address;
        private final ConnectionManager connections;

        Node(InetSocketAddress address, ConnectionManager connections) {
            this.address = address;
            this.connections = connections;
        }

        /** Whether the lock key {@code key} lives on this master (its cluster slot's, or the only one). */
        public boolean holds(String key) {
            MasterSlaveEntry entry = connections.getEntry(key);
            RedisClient master = entry == null ? null : entry.getClient();
            return master != null && address.equals(master.getAddr());
        }

        /** {@code host:port}, never a password. */
        public String describe() {
            return address.getHostString() + ":" + address.getPort();
        }
    }

    private final Holders holders;
    /** Each master's last known run_id, by address. */
    private final Map<InetSocketAddress, String> runIds = new ConcurrentHashMap<>();
    /** The masters whose connections dropped and that have not answered since. */
    private final Map<InetSocketAddress, Boolean> away = new ConcurrentHashMap<>();

    /** Each master's wall clock against the engine's, from the renewals' answers. */
    private final ServerClocks clocks = new ServerClocks();

    private Redisson client; // guarded by this
    private int listener; // guarded by this
    private boolean closed; // guarded by this

    public ServerWatch(Holders holders) {
        this.holders = Objects.requireNonNull(holders, "holders");
    }

    /**
     * Starts watching {@code redisson}'s masters, once; a client that is no {@link Redisson} (a test double) is not
     * watched.
     */
    public void watch(RedissonClient redisson) {
        if (!(redisson instanceof Redisson watched)) {
            return;
        }
        ConnectionManager connections;
        synchronized (this) {
            if (closed || client == watched) {
                return;
            }
            if (client != null) {
                stopListening();
            }
            client = watched;
            connections = watched.getCommandExecutor().getConnectionManager();
            listener = connections.getServiceManager().getConnectionEventsHub().addListener(new Listener(watched));
        }
        for (MasterSlaveEntry entry : connections.getEntrySet()) {
            if (entry.getClient() != null) {
                ask(watched, entry.getClient().getAddr(), false);
            }
        }
    }

    /** Stops watching; nothing is asked any more. */
    public void close() {
        synchronized (this) {
            closed = true;
            if (client != null) {
                stopListening();
            }
        }
    }

    private void stopListening() {
        client.getCommandExecutor()
                .getConnectionManager()
                .getServiceManager()
                .getConnectionEventsHub()
                .removeListener(listener);
        client = null;
    }

    private synchronized boolean isWatching(Redisson watched) {
        return !closed && client == watched;
    }

    private final class Listener implements ConnectionListener {
        private final Redisson watched;

        Listener(Redisson watched) {
            this.watched = watched;
        }

        @Override
        public void onConnect(InetSocketAddress address) {
            onConnect(address, NodeType.MASTER);
        }

        @Override
        public void onConnect(InetSocketAddress address, NodeType type) {
            if (type != NodeType.SENTINEL) {
                ask(watched, address, false);
            }
        }

        @Override
        public void onDisconnect(InetSocketAddress address) {
            onDisconnect(address, NodeType.MASTER);
        }

        @Override
        public void onDisconnect(InetSocketAddress address, NodeType type) {
            if (type != NodeType.SENTINEL && away.putIfAbsent(address, Boolean.TRUE) == null) {
                probeLater(watched, address);
            }
        }
    }

    private void probeLater(Redisson watched, InetSocketAddress address) {
        watched.getCommandExecutor()
                .getConnectionManager()
                .getServiceManager()
                .newTimeout(
                        timeout -> {
                            if (!isWatching(watched) || !away.containsKey(address)) {
                                return;
                            }
                            if (master(watched.getCommandExecutor().getConnectionManager(), address) == null) {
                                away.remove(address); // no master there any more: nothing to ask
                                return;
                            }
                            if (holders.anyHeld()) {
                                ask(watched, address, true);
                            } else {
                                probeLater(watched, address); // nothing to tell of now; keep an eye on it
                            }
                        },
                        PROBE_MILLIS,
                        TimeUnit.MILLISECONDS);
    }

    /**
     * Asks the master at {@code address} for its run_id on a connection of its own (Redisson's pooled ones may still be
     * waiting out their reconnection back-off), and compares. {@code retry}: ask again later if it cannot be reached.
     */
    private void ask(Redisson watched, InetSocketAddress address, boolean retry) {
        ConnectionManager connections = watched.getCommandExecutor().getConnectionManager();
        RedisClient master = master(connections, address);
        if (master == null) {
            away.remove(address); // a replica, or a master no more: its holds are watched through the new one
            return;
        }
        RedisClient probe = probe(connections, master);
        probe.connectAsync().whenComplete((connection, unreachable) -> {
            if (unreachable != null) {
                probe.shutdownAsync();
                if (retry) {
                    probeLater(watched, address);
                }
                return;
            }
            connection
                    .<Map<String, String>, Map<String, String>>async(StringCodec.INSTANCE, RedisCommands.INFO_SERVER)
                    .whenComplete((info, failure) -> {
                        connection.closeAsync().addListener(closed -> probe.shutdownAsync());
                        if (failure != null || info == null || info.get("run_id") == null) {
                            if (retry) {
                                probeLater(watched, address);
                            }
                            return;
                        }
                        away.remove(address);
                        if (isWatching(watched)) {
                            identified(new Node(address, connections), info.get("run_id"));
                        }
                    });
        });
    }

    /**
     * A client of the master's, set up as Redisson's own (credentials, TLS, timeouts), that tells no one of its
     * connection: Redisson keeps one connected-or-not state per address, which a probe's connection coming and going
     * would flip, hiding the next real disconnection.
     */
    private static RedisClient probe(ConnectionManager connections, RedisClient master) {
        RedisClient probe = connections.createClient(
                NodeType.MASTER,
                master.getAddr(),
                master.getConfig().getAddress(),
                master.getConfig().getSslHostname());
        probe.getConfig().setConnectedListener(null).setDisconnectedListener(null);
        return probe;
    }

    /**
     * A renewal of {@code key} sent at {@code sentNanos} and answered at {@code receivedNanos} (the engine's monotonic
     * clock) found the server's wall clock at {@code serverMillis}: compared with the previous answer of the same master
     * ({@link ServerClocks#read}). A jump forward is told to the other holds on that master ({@link
     * Holders#clockJumped}) before it is returned.
     *
     * @return how far the server's clock jumped forward since the previous answer (at least), or 0
     */
    public long clockRead(String key, long sentNanos, long receivedNanos, long serverMillis) {
        Node node = nodeOf(key);
        long ahead = clocks.read(
                node == null ? ServerClocks.ANY_SERVER : node.address,
                node == null ? "Redis" : "Redis at " + node.describe(),
                sentNanos,
                receivedNanos,
                serverMillis);
        if (ahead > 0 && node != null) {
            holders.clockJumped(node, ahead);
        }
        return ahead;
    }

    /** The watched master that holds {@code key}, or {@code null} while no client is watched. */
    private Node nodeOf(String key) {
        Redisson watched;
        synchronized (this) {
            watched = client;
        }
        if (watched == null) {
            return null;
        }
        ConnectionManager connections = watched.getCommandExecutor().getConnectionManager();
        MasterSlaveEntry entry = connections.getEntry(key);
        return entry == null || entry.getClient() == null
                ? null
                : new Node(entry.getClient().getAddr(), connections);
    }

    private void identified(Node node, String runId) {
        String before = runIds.put(node.address, runId);
        if (before != null && !before.equals(runId)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "Redis at " + node.describe() + " restarted (its run_id changed): a server restarted without"
                            + " persistence has forgotten every lock it held; Padlock reports the locks held there as"
                            + " lost (LockLost RESTART). Give it persistence (appendonly yes) or replicas if a restart"
                            + " must not free locks; docs/reference/failover.md says what each topology keeps.");
            holders.restarted(node);
        }
    }

    /** The client of the master at {@code address}, or {@code null} when no master is there. */
    private static RedisClient master(ConnectionManager connections, InetSocketAddress address) {
        for (MasterSlaveEntry entry : connections.getEntrySet()) {
            RedisClient master = entry.getClient();
            if (master != null && address.equals(master.getAddr())) {
                return master;
            }
        }
        return null;
    }
}
