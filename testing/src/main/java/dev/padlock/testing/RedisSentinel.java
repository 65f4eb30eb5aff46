package dev.padlock.testing;

import dev.padlock.redisserver.Info;
import dev.padlock.redisserver.RedisBinary;
import dev.padlock.redisserver.ServerProcess;
import dev.padlock.redisserver.Wait;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One master, one replica and three sentinels (quorum 2). {@link #master()} and {@link #replica()}
 * are the roles the servers were started in; after a failover a test provoked, ask the sentinels.
 */
public final class RedisSentinel implements AutoCloseable {
    static final String MASTER_NAME = "mymaster";
    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;

    private final RedisServer master;
    private final RedisServer replica;
    private final List<RedisServer> sentinels;
    private boolean closed;

    private RedisSentinel(RedisServer master, RedisServer replica, List<RedisServer> sentinels) {
        this.master = master;
        this.replica = replica;
        this.sentinels = List.copyOf(sentinels);
    }

    static RedisSentinel start(RedisBinary binary) {
        List<ServerProcess> processes = new ArrayList<>();
        try {
            ServerProcess masterProcess =
                    ServerProcess.start(binary, "sentinel-monitored master", null, binary::standaloneArguments);
            processes.add(masterProcess);
            int masterPort = masterProcess.port();
            ServerProcess replicaProcess =
                    ServerProcess.start(binary, "sentinel-monitored replica", null, (port, dir) -> {
                        List<String> args = new ArrayList<>(binary.standaloneArguments(port, dir));
                        args.addAll(List.of("--replicaof", ServerProcess.HOST, String.valueOf(masterPort)));
                        return args;
                    });
            processes.add(replicaProcess);
            RedisServer master = RedisServer.of(masterProcess);
            RedisServer replica = RedisServer.of(replicaProcess);
            // Sentinels learn replicas from the master's INFO, which they read first thing on connecting;
            // a replica still syncing then would stay unknown to them for another 10 s.
            Wait.until(
                    "the replica on port " + replica.port() + " to be in sync with the master on port " + masterPort,
                    () -> "up"
                                            .equals(Info.fields(replica.command("INFO", "replication"))
                                                    .get("master_link_status"))
                                    && Info.fields(master.command("INFO", "replication")).values().stream()
                                            .anyMatch(v ->
                                                    v.contains("port=" + replica.port()) && v.contains("state=online"))
                            ? Boolean.TRUE
                            : null,
                    replicaProcess::logTail);

            List<ServerProcess> sentinelProcesses = new ArrayList<>();
            for (int i = 1; i <= SENTINELS; i++) {
                ServerProcess sentinel = new ServerProcess(
                        binary, "sentinel " + i, false, (port, dir) -> sentinelArguments(port, dir, masterPort));
                processes.add(sentinel);
                sentinelProcesses.add(sentinel);
            }
            sentinelProcesses.forEach(ServerProcess::launch);
            sentinelProcesses.forEach(ServerProcess::awaitLaunched);
            List<RedisServer> sentinels = new ArrayList<>();
            sentinelProcesses.forEach(process -> sentinels.add(RedisServer.of(process)));
            for (RedisServer sentinel : sentinels) {
                Wait.until(
                        "sentinel at " + sentinel.uri() + " to see master " + MASTER_NAME + " at port " + masterPort
                                + ", its replica at port " + replica.port() + " and the other " + (SENTINELS - 1)
                                + " sentinels",
                        () -> incompleteView(sentinel, master, replica, sentinels) == null ? Boolean.TRUE : null,
                        () -> "sentinel at " + sentinel.uri() + ": "
                                + safeIncompleteView(sentinel, master, replica, sentinels) + "\n"
                                + sentinel.process().logTail());
            }
            return new RedisSentinel(master, replica, sentinels);
        } catch (RuntimeException e) {
            Closing.closeAll(processes, e);
            throw e;
        }
    }

    private static List<String> sentinelArguments(int port, Path dir, int masterPort) throws IOException {
        Path config = dir.resolve("sentinel.conf");
        // Sentinel rewrites this file with what it learns; a restarted sentinel keeps that knowledge.
        String text = String.join(
                "\n",
                "port " + port,
                "bind " + ServerProcess.HOST,
                "daemonize no",
                "dir \"" + dir + "\"",
                "logfile \"" + dir.resolve(RedisBinary.LOG_FILE) + "\"",
                "sentinel resolve-hostnames no",
                "sentinel announce-ip " + ServerProcess.HOST,
                "sentinel monitor " + MASTER_NAME + " " + ServerProcess.HOST + " " + masterPort + " " + QUORUM,
                "sentinel down-after-milliseconds " + MASTER_NAME + " 2000",
                "sentinel failover-timeout " + MASTER_NAME + " 6000",
                "");
        Files.writeString(config, text, StandardCharsets.UTF_8);
        return List.of(config.toString(), "--sentinel");
    }

    private static String safeIncompleteView(
            RedisServer sentinel, RedisServer master, RedisServer replica, List<RedisServer> sentinels) {
        try {
            return incompleteView(sentinel, master, replica, sentinels);
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    /** What is missing from this sentinel's picture, or null when a client doing discovery gets it all. */
    private static String incompleteView(
            RedisServer sentinel, RedisServer master, RedisServer replica, List<RedisServer> sentinels) {
        Object address = sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
        if (!List.of(ServerProcess.HOST, String.valueOf(master.port())).equals(address)) {
            return "master address " + address;
        }
        Map<String, String> masterView = fields(sentinel.command("SENTINEL", "MASTER", MASTER_NAME));
        if (!"master".equals(masterView.get("flags"))) {
            return "master flags " + masterView.get("flags");
        }
        List<Map<String, String>> replicas = entries(sentinel.command("SENTINEL", "REPLICAS", MASTER_NAME));
        if (replicas.size() != 1
                || !String.valueOf(replica.port()).equals(replicas.get(0).get("port"))
                || !"slave".equals(replicas.get(0).get("flags"))
                || !"ok".equals(replicas.get(0).get("master-link-status"))) {
            return "replicas " + replicas;
        }
        List<Map<String, String>> peers = entries(sentinel.command("SENTINEL", "SENTINELS", MASTER_NAME));
        List<String> expectedPorts = new ArrayList<>();
        for (RedisServer other : sentinels) {
            if (other != sentinel) {
                expectedPorts.add(String.valueOf(other.port()));
            }
        }
        List<String> seenPorts = new ArrayList<>();
        for (Map<String, String> peer : peers) {
            if ("sentinel".equals(peer.get("flags"))) {
                seenPorts.add(peer.get("port"));
            }
        }
        if (seenPorts.size() != expectedPorts.size() || !seenPorts.containsAll(expectedPorts)) {
            return "other sentinels " + peers;
        }
        return null;
    }

    private static List<Map<String, String>> entries(Object reply) {
        List<Map<String, String>> entries = new ArrayList<>();
        if (reply instanceof List) {
            for (Object entry : (List<?>) reply) {
                entries.add(fields(entry));
            }
        }
        return entries;
    }

    private static Map<String, String> fields(Object reply) {
        Map<String, String> fields = new HashMap<>();
        if (reply instanceof List) {
            List<?> flat = (List<?>) reply;
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
            }
        }
        return fields;
    }

    public String masterName() {
        return MASTER_NAME;
    }

    public RedisServer master() {
        return master;
    }

    public RedisServer replica() {
        return replica;
    }

    public List<RedisServer> sentinels() {
        return sentinels;
    }

    /** The sentinels' uris: the seed list for a client in sentinel mode. */
    public List<String> sentinelUris() {
        List<String> uris = new ArrayList<>();
        sentinels.forEach(sentinel -> uris.add(sentinel.uri()));
        return uris;
    }

    /** Stops the sentinels first, so that stopping the master does not set off a failover. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // closeAll goes newest first: sentinels, then replica, then master.
        List<RedisServer> all = new ArrayList<>();
        all.add(master);
        all.add(replica);
        all.addAll(sentinels);
        Closing.closeAll(all, null);
    }

    @Override
    public String toString() {
        return "RedisSentinel[" + MASTER_NAME + " master " + master.uri() + ", replica " + replica.uri()
                + ", sentinels " + sentinelUris() + "]";
    }
}
