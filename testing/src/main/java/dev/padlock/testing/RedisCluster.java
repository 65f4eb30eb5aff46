package dev.padlock.testing;

import dev.padlock.redisserver.Info;
import dev.padlock.redisserver.RedisBinary;
import dev.padlock.redisserver.ServerProcess;
import dev.padlock.redisserver.Wait;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cluster-enabled nodes with all 16384 slots assigned. {@link #masters()} and {@link #replicas()} are
 * the roles the nodes were started in; after a failover a test provoked, ask the nodes themselves.
 *
 * <p>A little over 250 lines: starting the nodes, assigning slots and waiting until every node agrees is one
 * sequence with one clean-up.
 */
public final class RedisCluster implements AutoCloseable {
    static final int SLOTS = 16384;

    private final List<RedisServer> masters;
    private final List<RedisServer> replicas;
    private boolean closed;

    private RedisCluster(List<RedisServer> masters, List<RedisServer> replicas) {
        this.masters = List.copyOf(masters);
        this.replicas = List.copyOf(replicas);
    }

    static RedisCluster start(RedisBinary binary, int masterCount, int replicasPerMaster) {
        if (masterCount < 1 || replicasPerMaster < 0) {
            throw new IllegalArgumentException("A cluster needs at least 1 master and no negative replica count, not "
                    + masterCount + " masters with " + replicasPerMaster + " replicas each");
        }
        List<ServerProcess> processes = new ArrayList<>();
        try {
            for (int m = 0; m < masterCount; m++) {
                processes.add(node(binary, "cluster master " + (m + 1)));
            }
            for (int m = 0; m < masterCount; m++) {
                for (int r = 0; r < replicasPerMaster; r++) {
                    processes.add(node(binary, "cluster replica " + (r + 1) + " of master " + (m + 1)));
                }
            }
            // Launch everything before waiting for anything: boot times overlap instead of adding up.
            processes.forEach(ServerProcess::launch);
            processes.forEach(ServerProcess::awaitLaunched);

            List<RedisServer> servers = new ArrayList<>();
            processes.forEach(process -> servers.add(RedisServer.of(process)));
            List<RedisServer> masters = servers.subList(0, masterCount);
            List<RedisServer> replicas = servers.subList(masterCount, servers.size());
            new Formation(binary, masters, replicas, replicasPerMaster).form();
            return new RedisCluster(masters, replicas);
        } catch (RuntimeException e) {
            Closing.closeAll(processes, e);
            throw e;
        }
    }

    private static ServerProcess node(RedisBinary binary, String role) {
        return new ServerProcess(binary, role, true, (port, dir) -> clusterArguments(binary, port, dir));
    }

    private static List<String> clusterArguments(RedisBinary binary, int port, Path dir) {
        List<String> args = new ArrayList<>(binary.standaloneArguments(port, dir));
        args.addAll(List.of(
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                dir.resolve("nodes.conf").toString(),
                "--cluster-node-timeout",
                "2000",
                "--cluster-announce-ip",
                ServerProcess.HOST));
        return args;
    }

    public List<RedisServer> masters() {
        return masters;
    }

    public List<RedisServer> replicas() {
        return replicas;
    }

    /** Every node's uri, masters first: the seed list for a cluster client. */
    public List<String> nodeUris() {
        List<String> uris = new ArrayList<>();
        masters.forEach(server -> uris.add(server.uri()));
        replicas.forEach(server -> uris.add(server.uri()));
        return uris;
    }

    /** Stops every node, replicas first so that no master waits for a replica on shutdown. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        List<RedisServer> all = new ArrayList<>(masters);
        all.addAll(replicas);
        Closing.closeAll(all, null);
    }

    @Override
    public String toString() {
        return "RedisCluster" + nodeUris();
    }

    /** Turns independent cluster-enabled nodes into one cluster, the way redis-cli --cluster create does. */
    private static final class Formation {
        private final RedisBinary binary;
        private final List<RedisServer> masters;
        private final List<RedisServer> replicas;
        private final List<RedisServer> all = new ArrayList<>();
        private final int replicasPerMaster;
        private final Map<RedisServer, String> ids = new HashMap<>();
        // Node id -> id of the master it should follow, "-" for a master.
        private final Map<String, String> expectedMasterOf = new HashMap<>();

        Formation(RedisBinary binary, List<RedisServer> masters, List<RedisServer> replicas, int replicasPerMaster) {
            this.binary = binary;
            this.masters = masters;
            this.replicas = replicas;
            this.replicasPerMaster = replicasPerMaster;
            all.addAll(masters);
            all.addAll(replicas);
        }

        void form() {
            for (RedisServer node : all) {
                ids.put(node, (String) node.command("CLUSTER", "MYID"));
            }
            assignSlots();
            for (int i = 0; i < all.size(); i++) {
                for (int j = i + 1; j < all.size(); j++) {
                    // Meeting every pair directly converges faster than waiting for gossip to spread.
                    all.get(i)
                            .command(
                                    "CLUSTER",
                                    "MEET",
                                    ServerProcess.HOST,
                                    String.valueOf(all.get(j).port()));
                }
            }
            Wait.until(
                    "all " + all.size() + " cluster nodes to know each other",
                    () -> all.stream().allMatch(this::knowsEveryone) ? Boolean.TRUE : null,
                    this::diagnostics);
            for (int m = 0; m < masters.size(); m++) {
                String masterId = ids.get(masters.get(m));
                expectedMasterOf.put(masterId, "-");
                for (int r = 0; r < replicasPerMaster; r++) {
                    RedisServer replica = replicas.get(m * replicasPerMaster + r);
                    replica.command("CLUSTER", "REPLICATE", masterId);
                    expectedMasterOf.put(ids.get(replica), masterId);
                }
            }
            Wait.until(
                    "every cluster node to report cluster_state:ok with all " + SLOTS
                            + " slots and the same view of masters and replicas",
                    () -> all.stream().allMatch(node -> problem(node) == null) ? Boolean.TRUE : null,
                    this::diagnostics);
        }

        private void assignSlots() {
            for (int m = 0; m < masters.size(); m++) {
                RedisServer master = masters.get(m);
                // Distinct epochs up front, as redis-cli does, instead of leaving collisions to be resolved
                // by gossip while a test is already trying to fail over.
                master.command("CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(m + 1));
                int first = m * SLOTS / masters.size();
                int last = (m + 1) * SLOTS / masters.size() - 1;
                if (binary.isAtLeast7()) {
                    master.command("CLUSTER", "ADDSLOTSRANGE", String.valueOf(first), String.valueOf(last));
                } else {
                    List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
                    for (int slot = first; slot <= last; slot++) {
                        args.add(String.valueOf(slot));
                    }
                    master.command(args.toArray(new String[0]));
                }
            }
        }

        private boolean knowsEveryone(RedisServer node) {
            List<String[]> lines = clusterNodes(node);
            return lines.size() == all.size()
                    && lines.stream()
                            .noneMatch(fields -> fields[2].contains("handshake") || fields[2].contains("noaddr"));
        }

        /** What keeps this node from being ready, or null when it is. */
        private String problem(RedisServer node) {
            Map<String, String> info = Info.fields(node.command("CLUSTER", "INFO"));
            if (!"ok".equals(info.get("cluster_state"))) {
                return "cluster_state:" + info.get("cluster_state");
            }
            if (!String.valueOf(SLOTS).equals(info.get("cluster_slots_ok"))) {
                return "cluster_slots_ok:" + info.get("cluster_slots_ok");
            }
            if (!String.valueOf(all.size()).equals(info.get("cluster_known_nodes"))) {
                return "cluster_known_nodes:" + info.get("cluster_known_nodes");
            }
            for (String[] fields : clusterNodes(node)) {
                String expected = expectedMasterOf.get(fields[0]);
                if (expected == null) {
                    return "unexpected node " + String.join(" ", fields);
                }
                boolean isMaster = fields[2].contains("master");
                boolean rightRole = expected.equals("-") ? isMaster : !isMaster && expected.equals(fields[3]);
                if (!rightRole || fields[2].contains("fail") || !"connected".equals(fields[7])) {
                    return "sees " + String.join(" ", fields);
                }
            }
            Map<String, String> replication = Info.fields(node.command("INFO", "replication"));
            boolean isReplica = !"-".equals(expectedMasterOf.get(ids.get(node)));
            if (isReplica) {
                if (!"up".equals(replication.get("master_link_status"))) {
                    return "master_link_status:" + replication.get("master_link_status");
                }
            } else {
                long online = replication.entrySet().stream()
                        .filter(e ->
                                e.getKey().startsWith("slave") && e.getValue().contains("state=online"))
                        .count();
                if (online != replicasPerMaster) {
                    return online + " of " + replicasPerMaster + " replicas online";
                }
            }
            return null;
        }

        private static List<String[]> clusterNodes(RedisServer node) {
            List<String[]> lines = new ArrayList<>();
            for (String line : ((String) node.command("CLUSTER", "NODES")).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(line.trim().split(" "));
                }
            }
            return lines;
        }

        private String diagnostics() {
            StringBuilder text = new StringBuilder();
            for (RedisServer node : all) {
                String problem;
                try {
                    problem = expectedMasterOf.isEmpty()
                            ? (knowsEveryone(node)
                                    ? null
                                    : "knows " + clusterNodes(node).size() + " nodes")
                            : problem(node);
                } catch (RuntimeException e) {
                    problem = e.toString();
                }
                if (problem != null) {
                    text.append(node.process().role())
                            .append(" at ")
                            .append(node.uri())
                            .append(": ")
                            .append(problem)
                            .append('\n')
                            .append(node.process().logTail())
                            .append('\n');
                }
            }
            return text.toString();
        }
    }
}
