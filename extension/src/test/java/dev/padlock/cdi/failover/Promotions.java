package dev.padlock.cdi.failover;

import dev.padlock.testing.RedisCluster;
import dev.padlock.testing.RedisSentinel;
import dev.padlock.testing.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the failover tests ask a topology: who is master now, and when a replica took over. Asked of the servers and
 * sentinels themselves (never of Redisson), so the times printed are Redis's view, not the client's.
 */
final class Promotions {

    private Promotions() {}

    /**
     * Polls the sentinels every 10 ms until one of them names a master on another port than {@code oldPort};
     * returns that port. Fails after 30 s: Sentinel with down-after 2 s promotes in a few seconds.
     */
    static int awaitSentinelPromotion(RedisSentinel sentinel, int oldPort) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - giveUp < 0) {
            for (RedisServer one : sentinel.sentinels()) {
                try {
                    Object address = one.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", sentinel.masterName());
                    if (address instanceof List<?> hostAndPort && hostAndPort.size() == 2) {
                        int port = Integer.parseInt(String.valueOf(hostAndPort.get(1)));
                        if (port != oldPort) {
                            return port;
                        }
                    }
                } catch (RuntimeException e) {
                    // a sentinel busy with the failover may not answer this poll; the next one will
                }
            }
            sleep(10);
        }
        throw new AssertionError("no sentinel named a new master within 30 s of killing the one on port " + oldPort);
    }

    /** The node that serves {@code key}'s slot now, by {@code CLUSTER KEYSLOT} and {@code CLUSTER NODES}. */
    static RedisServer clusterMasterOf(RedisCluster cluster, String key) {
        List<RedisServer> all = new ArrayList<>(cluster.masters());
        all.addAll(cluster.replicas());
        RedisServer asked = all.stream()
                .filter(RedisServer::isRunning)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no node of " + cluster + " runs"));
        long slot = (Long) asked.command("CLUSTER", "KEYSLOT", key);
        for (String[] node : clusterNodes(asked)) {
            if (!node[2].contains("master") || node[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < node.length; i++) {
                String range = node[i];
                if (range.startsWith("[")) {
                    continue; // a slot being migrated
                }
                String[] bounds = range.split("-");
                long first = Long.parseLong(bounds[0]);
                long last = bounds.length == 2 ? Long.parseLong(bounds[1]) : first;
                if (slot >= first && slot <= last) {
                    return byPort(cluster, port(node[1]));
                }
            }
        }
        throw new AssertionError("no master serves slot " + slot + " of " + key);
    }

    /** The replica of {@code master} (by {@code CLUSTER NODES}), which the cluster will promote when it dies. */
    static RedisServer clusterReplicaOf(RedisCluster cluster, RedisServer master) {
        String masterId = (String) master.command("CLUSTER", "MYID");
        for (String[] node : clusterNodes(master)) {
            if (node[2].contains("slave") && masterId.equals(node[3])) {
                return byPort(cluster, port(node[1]));
            }
        }
        throw new AssertionError("no replica of " + master + " in " + cluster);
    }

    /** Polls {@code replica} every 10 ms until {@code INFO replication} says it is a master. Fails after 30 s. */
    static void awaitClusterPromotion(RedisServer replica) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - giveUp < 0) {
            try {
                String info = String.valueOf(replica.command("INFO", "replication"));
                if (info.contains("role:master")) {
                    return;
                }
            } catch (RuntimeException e) {
                // polled again
            }
            sleep(10);
        }
        throw new AssertionError(replica + " was not promoted within 30 s");
    }

    private static RedisServer byPort(RedisCluster cluster, int port) {
        List<RedisServer> all = new ArrayList<>(cluster.masters());
        all.addAll(cluster.replicas());
        return all.stream()
                .filter(server -> server.port() == port)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no node of " + cluster + " on port " + port));
    }

    /** {@code 127.0.0.1:7000@17000} → 7000. */
    private static int port(String address) {
        String hostPort = address.split("@")[0];
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
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

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs {@code enter} (a locked call of another application) until it gets the key, at most 30 s: before that it
     * fails because the key is not free yet, or because the client has not found the new master yet.
     */
    static void enterWhenFree(Runnable enter, String what) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - giveUp < 0) {
            try {
                enter.run();
                return;
            } catch (RuntimeException e) {
                Thread.sleep(20);
            }
        }
        throw new AssertionError("the other application did not get " + what + " within 30 s of the promotion");
    }

    /** Sleeps until {@link System#nanoTime} reaches {@code nanoTime}; returns at once if it has. */
    static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
