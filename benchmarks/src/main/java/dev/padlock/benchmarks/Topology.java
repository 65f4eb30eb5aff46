package dev.padlock.benchmarks;

import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ServerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis servers of one suite run, started through {@code padlock-testing} and stopped with it: one node (the
 * default), or a master with one replica ({@code --topology replicated}, {@code --replica}) or the same watched by
 * three sentinels ({@code --topology sentinel}). With a replica, Redisson follows each acquisition by {@code WAIT}
 * for it ({@code checkLockSyncedSlaves}, default on, on both clients), which is what the replica rows put a price
 * on.
 *
 * <p>Commands are counted on the master, where every lock script and every {@code WAIT} runs; CPU is summed over
 * every server of the topology, so that a replica applying the master's stream does not count as another process
 * disturbing the pass.
 */
final class Topology implements AutoCloseable {

    /** The topologies the suite can run on. */
    enum Kind {
        SINGLE("single node", "redis-server started by padlock-testing"),
        REPLICATED(
                "master + 1 replica, Redisson replicated mode",
                "master + 1 replica (Redisson replicated mode), redis-servers started by padlock-testing"),
        SENTINEL(
                "master + 1 replica + 3 sentinels, Redisson sentinel mode",
                "master + 1 replica + 3 sentinels (Redisson sentinel mode), started by padlock-testing");

        final String label;
        final String machine;

        Kind(String label, String machine) {
            this.label = label;
            this.machine = machine;
        }

        static Kind parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--topology takes single, replicated or sentinel, got " + text, e);
            }
        }

        boolean hasReplica() {
            return this != SINGLE;
        }
    }

    /** A replica takes a full sync at start; on a loaded 2-core machine that is still seconds at most. */
    private static final Duration REPLICA_SYNC_TIMEOUT = Duration.ofSeconds(30);

    private final Kind kind;
    private final RedisServer master;
    private final List<RedisServer> servers;
    private final Connection connection;
    private final List<AutoCloseable> resources;

    private Topology(
            Kind kind,
            RedisServer master,
            List<RedisServer> servers,
            Connection connection,
            List<AutoCloseable> resources) {
        this.kind = kind;
        this.master = master;
        this.servers = List.copyOf(servers);
        this.connection = connection;
        this.resources = List.copyOf(resources);
    }

    static Topology start(Kind kind) {
        switch (kind) {
            case SINGLE: {
                RedisServer redis = Redis.startServer();
                return new Topology(kind, redis, List.of(redis), Connection.single(redis.uri()), List.of(redis));
            }
            case REPLICATED:
                return startReplicated();
            case SENTINEL: {
                RedisSentinel sentinel = Redis.startSentinel();
                List<RedisServer> servers = new ArrayList<>(List.of(sentinel.master(), sentinel.replica()));
                servers.addAll(sentinel.sentinels());
                Connection connection = new Connection(kind, sentinel.sentinelUris(), sentinel.masterName());
                return new Topology(kind, sentinel.master(), servers, connection, List.of(sentinel));
            }
            default:
                throw new IllegalArgumentException("no topology " + kind);
        }
    }

    /**
     * Two redis-server processes (a binary is needed: an address or a container cannot be made a replica here), the
     * second made a replica of the first with {@code REPLICAOF}, and waited for until the master sees it online.
     */
    private static Topology startReplicated() {
        List<AutoCloseable> started = new ArrayList<>();
        try {
            RedisServer master = Redis.startServer(ServerOptions.defaults());
            started.add(master);
            RedisServer replica = Redis.startServer(ServerOptions.defaults());
            started.add(replica);
            replica.command("REPLICAOF", master.host(), String.valueOf(master.port()));
            long deadline = System.nanoTime() + REPLICA_SYNC_TIMEOUT.toNanos();
            while (!replicaOnline(master)
                    || !"up".equals(info(replica, "replication").get("master_link_status"))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replica at " + replica.uri() + " did not sync with the"
                            + " master at " + master.uri() + " within " + REPLICA_SYNC_TIMEOUT.toSeconds() + " s;"
                            + " the master says " + info(master, "replication"));
                }
                Thread.sleep(50);
            }
            Connection connection = new Connection(Kind.REPLICATED, List.of(master.uri(), replica.uri()), null);
            return new Topology(Kind.REPLICATED, master, List.of(master, replica), connection, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            IllegalStateException failure =
                    new IllegalStateException("interrupted while starting a master and a replica", e);
            close(started, failure);
            throw failure;
        } catch (RuntimeException e) {
            close(started, e);
            throw e;
        }
    }

    /** Whether the master has a replica whose link is online, the one {@code WAIT} counts. */
    private static boolean replicaOnline(RedisServer master) {
        Map<String, String> replication = info(master, "replication");
        return replication.entrySet().stream()
                .anyMatch(e -> e.getKey().startsWith("slave") && e.getValue().contains("state=online"));
    }

    private static Map<String, String> info(RedisServer server, String section) {
        Map<String, String> fields = new HashMap<>();
        for (String line : String.valueOf(server.command("INFO", section)).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }

    Kind kind() {
        return kind;
    }

    /** Where the locks live and the commands are counted. */
    RedisServer master() {
        return master;
    }

    Connection connection() {
        return connection;
    }

    /**
     * Empties the master (the replica follows) and checks that its replica is still online: with none, every
     * acquisition would wait out Redisson's {@code slavesSyncTimeout} and fail, and the row would measure that.
     */
    void reset() {
        master.flushAll();
        if (kind.hasReplica() && !replicaOnline(master)) {
            throw new IllegalStateException(
                    "the master at " + master.uri() + " has no replica online: " + info(master, "replication"));
        }
    }

    /** CPU every server of the topology has used so far (user + system), in seconds. */
    double cpuSeconds() {
        double seconds = 0;
        for (RedisServer server : servers) {
            Map<String, String> cpu = info(server, "cpu");
            seconds += Double.parseDouble(cpu.getOrDefault("used_cpu_sys", "0"))
                    + Double.parseDouble(cpu.getOrDefault("used_cpu_user", "0"));
        }
        return seconds;
    }

    /** For the report's machine line: what runs Redis, and where. */
    String describe() {
        return master.isControllable() ? kind.machine : master.uri();
    }

    @Override
    public void close() {
        close(resources, null);
    }

    /**
     * Newest first, as padlock-testing closes what it started. Without a {@code primary} failure the first one here
     * is thrown; with one, every failure here is added to it.
     */
    private static void close(List<AutoCloseable> resources, RuntimeException primary) {
        RuntimeException failure = primary;
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException
                            ? (RuntimeException) e
                            : new IllegalStateException("cannot close " + resources.get(i), e);
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (primary == null && failure != null) {
            throw failure;
        }
    }
}
