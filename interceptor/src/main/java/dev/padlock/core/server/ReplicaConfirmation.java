package dev.padlock.core.server;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.config.Config;

/**
 * Whether the server lets a client confirm locks with its replicas. Redisson sends {@code WAIT} after each lock script
 * where the topology has replicas ({@code checkLockSyncedSlaves}); some servers refuse it. One that does not know the
 * command makes Redisson fall back, silently, to the master's answer alone; one that does not let the user run it
 * makes every acquisition fail (Redisson asks for {@code WAIT} also with {@code checkLockSyncedSlaves} off: it then
 * waits, but does not fail a lock no replica confirmed). Part of the server check, so that either is said as the
 * client connects, not found out under a failover or on the first call.
 */
final class ReplicaConfirmation {

    private ReplicaConfirmation() {}

    /**
     * Sends {@code WAIT 0 0} (answered at once) to the master, where the client confirms locks with replicas; completes
     * with the finding when the server refuses it, else empty (also when it cannot be asked: a connection problem is
     * reported elsewhere). Never fails.
     *
     * @param node how findings name the master the command goes to
     */
    static CompletableFuture<Optional<ServerFinding>> refusal(RedissonClient client, String node, Duration timeout) {
        Config config = client.getConfig();
        if (!(client instanceof Redisson redisson) || config.isSingleConfig() || !config.isCheckLockSyncedSlaves()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        try {
            return redisson.getCommandExecutor()
                    .writeAsync("padlock:replica-confirmation", StringCodec.INSTANCE, RedisCommands.WAIT, 0, 0)
                    .toCompletableFuture()
                    .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .handle((replicas, failure) ->
                            failure == null ? Optional.empty() : advice(NodeReply.of(failure, timeout), node));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
    }

    private static Optional<ServerFinding> advice(NodeReply reply, String node) {
        return switch (reply.kind()) {
            case NO_PERMISSION ->
                Optional.of(new ServerFinding(
                        ServerFinding.Severity.WARNING,
                        node,
                        "WAIT",
                        reply.text(),
                        "Redis does not let Padlock's user run WAIT (" + reply.text() + "). Redisson sends WAIT after"
                                + " every lock script where the master has replicas, to hear how many confirmed it, whatever"
                                + " padlock.redis.replica-confirmation says, so every lock acquisition fails. Allow the user"
                                + " +wait (ACL SETUSER <user> +wait)."));
            case UNKNOWN_COMMAND ->
                Optional.of(new ServerFinding(
                        ServerFinding.Severity.UNSAFE,
                        node,
                        "WAIT",
                        reply.text(),
                        "Redis does not know WAIT (" + reply.text() + "), which confirms each lock with the master's"
                                + " replicas: locks are confirmed by the master alone, so a failover may shorten a lease or"
                                + " grant a lock twice (see docs/reference/failover.md). Set"
                                + " padlock.redis.replica-confirmation=false to say this is intended."));
            default -> Optional.empty();
        };
    }
}
