package dev.padlock.core.client;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
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
 * waits, but does not fail a lock no replica confirmed). Asked once as Padlock's client starts, so that either is said
 * then, not found out under a failover or on the first call.
 */
final class ReplicaConfirmation {

    private ReplicaConfirmation() {}

    /**
     * Sends {@code WAIT 0 0} (answered at once) to the master, where the client confirms locks with replicas; completes
     * with what to tell the user when the server refuses it, else empty (also when it cannot be asked: a connection
     * problem is reported elsewhere).
     */
    static CompletionStage<Optional<String>> refusal(RedissonClient client) {
        Config config = client.getConfig();
        if (!(client instanceof Redisson redisson) || config.isSingleConfig() || !config.isCheckLockSyncedSlaves()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        try {
            return redisson.getCommandExecutor()
                    .writeAsync("padlock:replica-confirmation", StringCodec.INSTANCE, RedisCommands.WAIT, 0, 0)
                    .handle((replicas, failure) -> failure == null ? Optional.empty() : advice(rootMessage(failure)));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
    }

    /** The server's reply, without what Redisson appends to it (the channel, the command and its promise). */
    private static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        String message = t.getMessage();
        int appended = message == null ? -1 : message.indexOf(". channel: ");
        return appended < 0 ? message : message.substring(0, appended);
    }

    private static Optional<String> advice(String reply) {
        if (reply == null) {
            return Optional.empty();
        }
        if (reply.startsWith("NOPERM")) {
            return Optional.of("Redis does not let Padlock's user run WAIT (" + reply + "). Redisson sends WAIT after"
                    + " every lock script where the master has replicas, to hear how many confirmed it, whatever"
                    + " padlock.redis.replica-confirmation says, so every lock acquisition fails. Allow the user +wait"
                    + " (ACL SETUSER <user> +wait).");
        }
        if (reply.startsWith("ERR unknown command")) {
            return Optional.of("Redis does not know WAIT (" + reply + "), which confirms each lock with the master's"
                    + " replicas: locks are confirmed by the master alone, so a failover may shorten a lease or grant a"
                    + " lock twice (see docs/reference/failover.md). Set padlock.redis.replica-confirmation=false to say this is"
                    + " intended.");
        }
        return Optional.empty();
    }
}
