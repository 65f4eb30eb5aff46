package dev.padlock.core.server;

import dev.padlock.core.server.ServerFinding.Severity;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisMaster;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNode.InfoSection;
import org.redisson.api.redisnode.RedisNodeAsync;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * Asks every master a client knows for the settings that can void a lock, and words what it finds:
 *
 * <ul>
 *   <li>a {@code maxmemory} with a {@code maxmemory-policy} other than {@code noeviction}: the server may evict lock
 *       keys ({@code volatile-*} policies evict exactly the keys with a TTL, and every lock has one) — unsafe;
 *   <li>replicas, while the client confirms locks with them, and no {@code min-replicas-to-write}: Redisson asks the
 *       master how many replicas are connected before each lock script and waits for that many, so with none connected
 *       a lock is granted by the master alone — unsafe;
 *   <li>no append-only file: a restart loses the locks (all of them without snapshots, those taken since the last
 *       snapshot with) — a notice, as that is often intended;
 *   <li>a command the check needs that the server refuses or does not answer: what could not be checked, and how to
 *       allow it — a warning;
 *   <li>{@code WAIT} refused or unknown ({@link ReplicaConfirmation}).
 * </ul>
 *
 * <p>Everything comes from {@code INFO}, which managed services allow; only whether snapshots are saved needs
 * {@code CONFIG GET save}, and only where the append-only file is off. Works on an application's client too (through
 * Redisson's public node API, also behind a CDI proxy); never blocks, never fails: a refusal or a silent node is a
 * finding.
 */
final class ServerCheck {

    /**
     * How long a node may take to answer each command. A healthy node answers in a millisecond; Redisson's own retries
     * of an unanswered command would otherwise hold a check (and a start-up under {@code fail}) for tens of seconds.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static final String NOEVICTION = "noeviction";

    private ServerCheck() {}

    /**
     * The findings on every master of {@code client}, in {@link ServerFinding#ORDER}; empty when the server is safe
     * for locks. Completes on Redisson's threads (or a timer's), never exceptionally.
     */
    static CompletableFuture<List<ServerFinding>> inspect(RedissonClient client) {
        Config config;
        List<Master> masters;
        try {
            config = client.getConfig();
            masters = masters(client, config);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(List.of(new ServerFinding(
                    Severity.WARNING,
                    "every master",
                    "nodes",
                    NodeReply.of(e, TIMEOUT).text(),
                    "Padlock could not find the Redis masters to check for settings that can void a lock ("
                            + NodeReply.of(e, TIMEOUT).text() + "); check maxmemory-policy, min-replicas-to-write and"
                            + " persistence on the server yourself (docs/reference/troubleshooting.md).")));
        }
        // Single mode sends no WAIT, whatever checkLockSyncedSlaves says: replicas confirm nothing there.
        boolean confirms = !config.isSingleConfig() && config.isCheckLockSyncedSlaves();
        List<CompletableFuture<List<ServerFinding>>> parts = new ArrayList<>();
        for (Master master : masters) {
            parts.add(inspect(master.node(), master.address(), confirms));
        }
        String wait = masters.size() == 1 ? masters.get(0).address() : "every master";
        parts.add(ReplicaConfirmation.refusal(client, wait, TIMEOUT)
                .thenApply(found -> found.stream().toList()));
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(done -> parts.stream()
                .flatMap(part -> part.join().stream())
                .sorted(ServerFinding.ORDER)
                .toList());
    }

    /** A master to ask, and how findings name it. */
    private record Master(RedisNodeAsync node, String address) {

        static <N extends RedisNode & RedisNodeAsync> Master of(N node) {
            return new Master(node, ServerCheck.address(node));
        }
    }

    /** The masters, asked for the way the client's topology wants (Redisson refuses the others). */
    private static List<Master> masters(RedissonClient client, Config config) {
        if (config.isClusterConfig()) {
            return client.getRedisNodes(RedisNodes.CLUSTER).getMasters().stream()
                    .map(Master::of)
                    .toList();
        }
        RedisMaster master = config.isSentinelConfig()
                ? client.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE).getMaster()
                : client.getRedisNodes(RedisNodes.MASTER_SLAVE).getMaster();
        return master == null ? List.of() : List.of(Master.of(master));
    }

    private static CompletableFuture<List<ServerFinding>> inspect(RedisNodeAsync node, String at, boolean confirms) {
        CompletableFuture<Answer> memory = ask(() -> node.infoAsync(InfoSection.MEMORY));
        CompletableFuture<Answer> replication =
                confirms ? ask(() -> node.infoAsync(InfoSection.REPLICATION)) : CompletableFuture.completedFuture(null);
        CompletableFuture<Answer> persistence = ask(() -> node.infoAsync(InfoSection.PERSISTENCE));
        // Snapshots matter only without the append-only file, and only they need CONFIG.
        CompletableFuture<Answer> save = persistence.thenCompose(
                p -> p.values() != null && !"1".equals(p.values().get("aof_enabled"))
                        ? ask(() -> node.getConfigAsync("save"))
                        : CompletableFuture.completedFuture(null));
        return CompletableFuture.allOf(memory, replication, save)
                .thenApply(done -> findings(at, memory.join(), replication.join(), persistence.join(), save.join()));
    }

    private static List<ServerFinding> findings(
            String at, Answer memory, Answer replication, Answer persistence, Answer save) {
        List<ServerFinding> found = new ArrayList<>();
        List<String> unchecked = new ArrayList<>();
        NodeReply infoRefusal = null;

        String policy = memory.values() == null ? null : memory.values().get("maxmemory_policy");
        if (policy == null) {
            unchecked.add("maxmemory-policy");
            infoRefusal = memory.refusalOr("INFO memory does not report maxmemory_policy");
        } else {
            eviction(at, memory.values(), policy).ifPresent(found::add);
        }
        if (replication != null) {
            if (replication.values() == null) {
                unchecked.add("min-replicas-to-write");
                infoRefusal = infoRefusal != null ? infoRefusal : replication.refusal();
            } else {
                replicas(at, replication.values()).ifPresent(found::add);
            }
        }
        if (persistence.values() == null) {
            unchecked.add("appendonly");
            infoRefusal = infoRefusal != null ? infoRefusal : persistence.refusal();
        } else if (save != null) {
            persistence(at, save).ifPresent(found::add);
        }
        if (!unchecked.isEmpty()) {
            found.add(unchecked(at, infoRefusal, unchecked));
        }
        return found;
    }

    private static Optional<ServerFinding> eviction(String at, Map<String, String> memory, String policy) {
        String maxmemory = memory.getOrDefault("maxmemory", "0").trim();
        if (policy.equals(NOEVICTION) || maxmemory.equals("0")) {
            return Optional.empty();
        }
        String limit = memory.getOrDefault("maxmemory_human", maxmemory + " bytes");
        String evicts = policy.startsWith("volatile-")
                ? "deletes keys that have a TTL, and every lock has one"
                : "deletes any key, locks included";
        return Optional.of(new ServerFinding(
                Severity.UNSAFE,
                at,
                "maxmemory-policy",
                policy,
                "Redis at " + at + " can evict lock keys: maxmemory-policy is " + policy + " with maxmemory " + limit
                        + ", so when its memory is full it " + evicts + ", and an evicted lock lets another client take"
                        + " it at once while its holder still runs. Set maxmemory-policy noeviction on that server"
                        + " (CONFIG SET maxmemory-policy noeviction, and in its redis.conf or the service's parameter"
                        + " group; a full server then refuses new locks instead of dropping held ones), or keep the"
                        + " locks on a Redis that does not evict."));
    }

    private static Optional<ServerFinding> replicas(String at, Map<String, String> replication) {
        int replicas = count(replication.get("connected_slaves"));
        // min_slaves_good_slaves is reported only while min-replicas-to-write is set.
        if (!"master".equals(replication.get("role"))
                || replicas == 0
                || replication.containsKey("min_slaves_good_slaves")) {
            return Optional.empty();
        }
        return Optional.of(new ServerFinding(
                Severity.UNSAFE,
                at,
                "min-replicas-to-write",
                "0",
                "Redis master " + at + " has " + replicas + " replica(s) and min-replicas-to-write 0: with no replica"
                        + " connected it goes on granting and renewing locks, and Redisson, which asks the master how"
                        + " many replicas to wait for, then waits for none, so a failover to a replica that missed them"
                        + " grants held locks again, although padlock.redis.replica-confirmation is on. Set"
                        + " min-replicas-to-write 1 on the master (CONFIG SET min-replicas-to-write 1, with"
                        + " min-replicas-max-lag, and in its redis.conf or the service's parameter group), so it refuses"
                        + " what no replica can confirm; or set padlock.redis.replica-confirmation=false to say the"
                        + " master's answer alone is intended."));
    }

    /** The append-only file is off here; {@code save} says whether snapshots are taken. */
    private static Optional<ServerFinding> persistence(String at, Answer save) {
        if (save.values() == null) {
            NodeReply refusal = save.refusal();
            String allow = refusal.kind() == NodeReply.Kind.NO_PERMISSION
                    ? "Allow Padlock's user to read the configuration (ACL SETUSER <user> +config|get), or check"
                    : refusal.kind() == NodeReply.Kind.UNKNOWN_COMMAND
                            ? "The server does not offer CONFIG, as managed services do: check"
                            : "Check";
            return Optional.of(new ServerFinding(
                    Severity.WARNING,
                    at,
                    "CONFIG GET save",
                    refusal.text(),
                    "Padlock could not check whether Redis at " + at + " saves snapshots: CONFIG GET save got "
                            + refusal.text() + ". Its append-only file is off, so without snapshots a restart frees"
                            + " every lock it held. " + allow + " the server's snapshot (save) setting yourself"
                            + " (docs/reference/troubleshooting.md)."));
        }
        String points = save.values().getOrDefault("save", "").trim();
        String consequence = points.isEmpty()
                ? " keeps locks in memory only (appendonly no, no save points): if it restarts, every lock it held is"
                        + " gone"
                : " saves locks only in snapshots (appendonly no, save " + points + "): if it restarts, every lock"
                        + " taken since its last snapshot is gone";
        return Optional.of(new ServerFinding(
                Severity.NOTICE,
                at,
                "appendonly",
                points.isEmpty() ? "no, no save points" : "no, save " + points,
                "Redis at " + at + consequence + ", and another client can take it at once; its holder hears of it"
                        + " when Padlock reaches the restarted server (LockLost RESTART), while it may still be running."
                        + " Set appendonly yes if a restart must not free locks (appendfsync everysec loses at most the"
                        + " last second); docs/reference/failover.md says what each topology keeps. Said only:"
                        + " padlock.redis.unsafe-server does not apply."));
    }

    private static ServerFinding unchecked(String at, NodeReply refusal, List<String> settings) {
        String allow =
                switch (refusal.kind()) {
                    case NO_PERMISSION -> "Allow Padlock's user INFO (ACL SETUSER <user> +info), or check";
                    case UNKNOWN_COMMAND -> "The server does not offer INFO: check";
                    default -> "Check";
                };
        return new ServerFinding(
                Severity.WARNING,
                at,
                "INFO",
                refusal.text(),
                "Padlock could not check Redis at " + at + " for " + String.join(", ", settings)
                        + ", settings that can void a lock: INFO got " + refusal.text() + ". " + allow
                        + " them on the server yourself (docs/reference/troubleshooting.md).");
    }

    /** {@code host:port} as the client reached the node: never user info or a password. */
    private static String address(RedisNode node) {
        InetSocketAddress address = node.getAddr();
        return address.getHostString() + ":" + address.getPort();
    }

    private static int count(String text) {
        try {
            return text == null ? 0 : Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static CompletableFuture<Answer> ask(Supplier<RFuture<Map<String, String>>> command) {
        CompletableFuture<Map<String, String>> reply;
        try {
            // A copy: the time limit must not complete Redisson's own future.
            reply = command.get().toCompletableFuture().copy();
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .handle((values, failure) ->
                        failure == null ? new Answer(values, null) : new Answer(null, NodeReply.of(failure, TIMEOUT)));
    }

    /** A node's answer to one command: its values, or why there are none. */
    private record Answer(Map<String, String> values, NodeReply refusal) {

        /** Why the values lack what was asked: the refusal, else {@code missing}. */
        NodeReply refusalOr(String missing) {
            return refusal != null ? refusal : new NodeReply(NodeReply.Kind.OTHER, missing);
        }
    }
}
