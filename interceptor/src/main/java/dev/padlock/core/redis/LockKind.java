package dev.padlock.core.redis;

import dev.padlock.LockType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.redisson.RedissonObject;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * What Padlock needs to know of a {@link LockType}: which Redisson lock object guards a key, which types share a key,
 * whether an acquisition gives a token, how its lease is extended, and whether the calls of one application queue for
 * it in {@code dev.padlock.core.turns.LocalTurns}. Decided for every type in {@link #of}, a switch without a default in
 * which every component is given: a new type does not compile until someone decides each of these, and the rest of
 * Padlock reads them here rather than testing types.
 *
 * @param locks the Redisson lock for a key
 * @param family the Redisson lock family, as messages name it: types of one family see each other's holders on one
 *     Redis key, types of two families do not (see {@code LockTypeConflicts}); READ and WRITE are one, {@code
 *     READ/WRITE}, and each other type is a family of its own, named as the type
 * @param fenced whether each acquisition gets a fencing token, strictly larger than the key's previous one
 * @param readLayout whether the lock is recorded as a read lock (a shared hash plus hold keys per reader; see {@link
 *     RenewalScripts}) rather than as an exclusive hash
 * @param ownerSuffix what Redisson appends to the owner's hash field ({@code :write} for a writer)
 * @param takesTurns whether calls of one application queue for the key before asking Redis: exclusive locks
 *     without a fair order only (readers share; a fair lock's Redis queue must keep every waiter's place)
 * @param channel the prefix of the channel on which Redisson's waiters for a key hear of its release (the channel
 *     is {@code <prefix>:{<key>}}); {@code null} for a lock whose waiters poll instead (spin) or that does not take
 *     turns
 * @param keepsHolds whether a call's hold may outlive the call, left to expire at a later time instead of unlocked
 *     (a hold-at-least): the lock is one owner's hash entry that only its owner's unlock or its expiry frees, and no
 *     waiter queues for it in Redis (a fair lock's queue would wait for an unlock that never comes; a read-write
 *     lock's hash is shared with its readers)
 */
public record LockKind(
        BiFunction<RedissonClient, String, RLock> locks,
        String family,
        boolean fenced,
        boolean readLayout,
        String ownerSuffix,
        boolean takesTurns,
        String channel,
        boolean keepsHolds) {

    private static final String READ_WRITE = "READ/WRITE";

    public static LockKind of(LockType type) {
        // lock, family, fenced, read layout, owner suffix, takes turns, release channel, keeps holds
        return switch (type) {
            case REENTRANT ->
                new LockKind(
                        RedissonClient::getLock, "REENTRANT", false, false, "", true, "redisson_lock__channel", true);
            case FAIR -> new LockKind(RedissonClient::getFairLock, "FAIR", false, false, "", false, null, false);
            case SPIN -> new LockKind(RedissonClient::getSpinLock, "SPIN", false, false, "", true, null, true);
            case FENCED ->
                new LockKind(TimeFencedLock::of, "FENCED", true, false, "", true, "redisson_lock__channel", true);
            case WRITE ->
                new LockKind(
                        (client, key) -> client.getReadWriteLock(key).writeLock(),
                        READ_WRITE,
                        false,
                        false,
                        ":write",
                        true,
                        "redisson_rwlock",
                        false);
            case READ ->
                new LockKind(
                        (client, key) -> client.getReadWriteLock(key).readLock(),
                        READ_WRITE,
                        false,
                        true,
                        "",
                        false,
                        null,
                        false);
        };
    }

    /**
     * Whether a finishing call may hand its Redis hold straight to the next call queued here ({@code
     * dev.padlock.core.call.HandOff}): only a kind that queues locally has a next call; not a fenced one, as each
     * holder must get a strictly larger token and only a lock script in Redis can hand one out; and not one whose
     * waiters poll instead of subscribing ({@code SPIN}): a chain must end by giving way to the other applications'
     * waiters it can see ({@link #listeners}), and those it cannot see would only get the key in the instant between
     * two chains.
     */
    public boolean handsOff() {
        return takesTurns && !fenced && channel != null;
    }

    /**
     * How many clients other than those waiting here listen for the release of {@code key}: Redisson's waiters
     * subscribe to the lock's channel while they wait in Redis (a client subscribes once, however many of its callers
     * wait). Padlock's own callers of a key queue in the application and wait in Redis one at a time, so while a call
     * of this application holds the key, none of its own client's subscriptions is for it: a count above 0 means
     * another application (or raw Redisson code) waits. One {@code PUBSUB NUMSUB} (sharded in a cluster); completes
     * with 0 for a kind whose waiters do not subscribe.
     */
    public CompletionStage<Long> listeners(RedissonClient client, String key) {
        if (channel == null) {
            return CompletableFuture.completedFuture(0L);
        }
        String name = RedissonObject.prefixName(channel, key);
        return client.getConfig().isClusterConfig()
                ? client.getShardedTopic(name).countSubscribersAsync()
                : client.getTopic(name).countSubscribersAsync();
    }

    /**
     * Instead of unlocking {@code lock}, leaves the hold of {@code owner} of this client to expire in {@code millis}
     * (a hold-at-least, for kinds that {@link #keepsHolds}); completes with false when that owner no longer holds it.
     * The hold stays under the owner's id, which no other call uses, so nobody can release it early, and its waiters
     * take the key once it expired.
     */
    public CompletionStage<Boolean> keep(RedissonClient client, RLock lock, long owner, long millis) {
        return RenewalScripts.keep(
                client, lock.getName(), RenewalScripts.ownerField(client, owner) + ownerSuffix, millis);
    }

    public RLock lock(RedissonClient client, String key) {
        return locks.apply(client, key);
    }

    /**
     * Extends the lease of {@code lock} to {@code leaseMillis} if {@code owner} of this client still holds it (see
     * {@link RenewalScripts}); completes with false when it no longer does.
     */
    public CompletionStage<Boolean> renew(RedissonClient client, RLock lock, long owner, long leaseMillis) {
        return renewReadingTime(client, lock, owner, leaseMillis).thenApply(RenewalAnswer::held);
    }

    /** {@link #renew}, answering also the server's time when the script ran. */
    public CompletionStage<RenewalAnswer> renewReadingTime(
            RedissonClient client, RLock lock, long owner, long leaseMillis) {
        String field = RenewalScripts.ownerField(client, owner) + ownerSuffix;
        return readLayout
                ? RenewalScripts.read(client, lock.getName(), field, leaseMillis)
                : RenewalScripts.exclusive(client, lock.getName(), field, leaseMillis);
    }
}
