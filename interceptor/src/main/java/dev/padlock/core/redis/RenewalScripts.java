package dev.padlock.core.redis;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.redisson.Redisson;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.NoSyncedSlavesException;
import org.redisson.config.Config;

/**
 * The owner-checked lease extensions Padlock's lease renewal ({@code dev.padlock.core.lease.LeaseRenewal}) sends, one script per lock layout. They read the data
 * Redisson 4.7 writes for a lock (the tests of every lock type hold one past its watchdog timeout, so a change
 * of that layout in a Redisson upgrade fails the build):
 *
 * <ul>
 *   <li>exclusive locks (reentrant, fair, spin, fenced, write) are a hash under the lock key whose field
 *       {@code <client id>:<owner>} (write: {@code ...:write}) counts the owner's holds;
 *   <li>a read lock is that hash (shared by readers) plus one key per hold of each reader,
 *       {@code {<lock key>}:<client id>:<owner>:rwlock_timeout:<n>}, which lapse on their own.
 * </ul>
 *
 * A script extends nothing and answers false when the owner no longer holds the lock, so a renewal can never
 * revive a lost lock nor lengthen another owner's.
 *
 * <p>Where the master has replicas and the client confirms locks with them ({@code checkLockSyncedSlaves}, Padlock's
 * {@code padlock.redis.replica-confirmation}), a script goes out the way Redisson sends its own lock scripts: followed
 * in the same round trip by {@code WAIT} (or {@code WAITAOF} where the master writes an append-only file) for every
 * replica the master has, for at most {@code slavesSyncTimeout}. An extension that no replica confirmed completes
 * exceptionally, so the holder's deadline does not move: a failover to that replica would bring back the older
 * expiry. Where the server refuses {@code WAIT}, Redisson sends the script alone and the master's answer decides.
 */
final class RenewalScripts {

    /**
     * The server's clock, read first by every script: {@code now} in milliseconds. The answer carries it, doubled, plus
     * 1 when the owner still held the lock: the holder compares it with its own monotonic clock, to see a server
     * clock that jumped or stopped ({@code ServerWatch}), at no extra round trip. Exact in Lua's doubles: 2^53 ms is
     * 285,000 years. {@code TIME} before a write is allowed since Redis replicates a script's effects, not the script
     * (5.0 by default, 7.0 always).
     */
    private static final String NOW = "local t = redis.call('time'); "
            + "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000); ";

    /** KEYS[1] the lock; ARGV[1] the lease in ms; ARGV[2] the owner's field. now * 2 + 1 when renewed, now * 2 when not held. */
    private static final String EXCLUSIVE = NOW
            + "if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then "
            + "redis.call('pexpire', KEYS[1], ARGV[1]); "
            + "return now * 2 + 1; "
            + "end; "
            + "return now * 2;";

    /**
     * Same contract for a read lock: every hold key of this reader is extended, and the shared hash only ever
     * lengthened (another reader's longer fixed lease is kept). A reader holds the lock only while all its hold keys
     * exist: once one lapsed (a pause longer than the lease, while another reader kept the hash alive), Redisson's
     * next unlock ignores this reader and may let a writer in, so the answer is "not held" and nothing is extended. The hold keys are named from KEYS[1] as Redisson
     * names them: with the lock key as hash tag unless it already has braces, so they share its cluster slot.
     */
    private static final String READ = NOW
            + "local holds = redis.call('hget', KEYS[1], ARGV[2]); "
            + "if holds == false then return now * 2; end; "
            + "local tag = KEYS[1]; "
            + "if string.find(tag, '{', 1, true) == nil then tag = '{' .. tag .. '}'; end; "
            + "local prefix = tag .. ':' .. ARGV[2] .. ':rwlock_timeout:'; "
            + "for n = 1, tonumber(holds) do "
            + "if redis.call('exists', prefix .. n) == 0 then return now * 2; end; "
            + "end; "
            + "for n = 1, tonumber(holds) do redis.call('pexpire', prefix .. n, ARGV[1]); end; "
            + "if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then redis.call('pexpire', KEYS[1], ARGV[1]); end; "
            + "return now * 2 + 1;";

    private RenewalScripts() {}

    /** The hash field under which Redisson records the holds of {@code owner} of this client. */
    static String ownerField(RedissonClient client, long owner) {
        return client.getId() + ":" + owner;
    }

    static CompletionStage<RenewalAnswer> exclusive(RedissonClient client, String key, String field, long leaseMillis) {
        return run(client, EXCLUSIVE, key, field, leaseMillis);
    }

    static CompletionStage<RenewalAnswer> read(RedissonClient client, String key, String field, long leaseMillis) {
        return run(client, READ, key, field, leaseMillis);
    }

    /**
     * Leaves an exclusive lock's hold to expire in {@code millis}, owner-checked (the {@link #EXCLUSIVE} script): a
     * hold-at-least, ended. Never waits for replicas: a replica that missed it still has the hold's older expiry, the
     * lease's end, which is never sooner, so a failover can only keep the key longer, and the master's answer tells
     * whether the owner still held it.
     */
    static CompletionStage<Boolean> keep(RedissonClient client, String key, String field, long millis) {
        return plain(client, EXCLUSIVE, key, field, millis).thenApply(RenewalAnswer::held);
    }

    /**
     * No replica of the lock's master confirmed an extension within the client's {@code slavesSyncTimeout}: the master
     * extended the lease, but a failover to a replica would not carry it.
     */
    static final class NotConfirmedByReplicas extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NotConfirmedByReplicas(long timeoutMillis, Throwable cause) {
            super(
                    "no replica confirmed the extension within " + timeoutMillis
                            + " ms (padlock.redis.replica-timeout), so the lock's deadline stays where the last"
                            + " confirmed one put it",
                    cause);
        }
    }

    /** Whether extensions wait for the master's replicas: see the class comment. */
    static boolean confirmsWithReplicas(RedissonClient client) {
        Config config = client.getConfig();
        return client instanceof Redisson && config.isCheckLockSyncedSlaves() && !config.isSingleConfig();
    }

    private static CompletionStage<RenewalAnswer> run(
            RedissonClient client, String script, String key, String field, long leaseMillis) {
        if (confirmsWithReplicas(client)) {
            long timeout = client.getConfig().getSlavesSyncTimeout();
            // Not retried by Redisson: the lease renewal retries on its own, with its own deadline in view.
            return ((Redisson) client)
                    .getCommandExecutor()
                    .<Long>syncedEvalNoRetry(
                            key,
                            StringCodec.INSTANCE,
                            RedisCommands.EVAL_LONG,
                            script,
                            List.of(key),
                            Long.toString(leaseMillis),
                            field)
                    .exceptionally(failure -> {
                        Throwable cause = Acquisition.unwrap(failure);
                        throw new CompletionException(
                                cause instanceof NoSyncedSlavesException
                                        ? new NotConfirmedByReplicas(timeout, cause)
                                        : cause);
                    })
                    .thenApply(RenewalAnswer::of);
        }
        return plain(client, script, key, field, leaseMillis);
    }

    private static CompletionStage<RenewalAnswer> plain(
            RedissonClient client, String script, String key, String field, long leaseMillis) {
        // Routed by the lock key (its cluster slot); Redisson caches the script and sends EVALSHA.
        return client.getScript(StringCodec.INSTANCE)
                .<Long>evalAsync(
                        key,
                        RScript.Mode.READ_WRITE,
                        script,
                        RScript.ReturnType.LONG,
                        List.of(key),
                        Long.toString(leaseMillis),
                        field)
                .thenApply(RenewalAnswer::of);
    }
}
