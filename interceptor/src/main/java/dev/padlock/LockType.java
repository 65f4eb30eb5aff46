package dev.padlock;

/**
 * The kind of Redisson lock behind a {@link Locked} method or a named lock bean.
 *
 * <pre>{@code
 * @Locked(value = "ledger", key = "{account}", type = LockType.FENCED)
 * public void post(String account, Entry entry) {
 *     ledger.write(account, entry, lock.token());   // lock is the injected LockContext
 * }
 * }</pre>
 *
 * <p>For {@code REENTRANT}, {@code WRITE}, {@code SPIN} and {@code FENCED} locks, the calls of one application that
 * want the same key queue in the JVM, in arrival order, and only the first asks Redis; the next asks once that lock
 * is released. Other applications still meet in Redis, which decides who holds the lock. The time in that queue
 * counts against {@link Locked#waitTime()}. {@code FAIR} locks do not queue locally, so that Redis's queue keeps
 * every caller's place; {@code READ} locks do not, as readers share.
 *
 * <p>Redisson's lock families do not see each other's holders, so one lock name keeps one type (READ and WRITE
 * counting as one); a deployment error says where it does not. Per lock: {@code padlock.locks."<name>".type}, e.g.
 * {@code fenced}.
 */
public enum LockType {
    /** {@code RedissonClient.getLock}: reentrant, no ordering among waiters. Queues locally. The default. */
    REENTRANT,
    /** {@code RedissonClient.getFairLock}: waiters acquire in the order they asked Redis. Does not queue locally. */
    FAIR,
    /**
     * The read side of {@code RedissonClient.getReadWriteLock}: shared with other readers, excluded by a writer.
     * {@code READ} and {@code WRITE} of one name are the two sides of one Redis structure. Does not queue locally.
     */
    READ,
    /**
     * The write side of {@code RedissonClient.getReadWriteLock}: excludes readers and writers of the same name,
     * with which it shares one Redis structure. Queues locally.
     */
    WRITE,
    /**
     * {@code RedissonClient.getSpinLock}: polls with backoff instead of pub/sub. Queues locally, but each call unlocks in
     * Redis: its key is not handed to the next local caller, since other applications' polling waiters could not be
     * seen and given way to.
     */
    SPIN,
    /**
     * {@code RedissonClient.getFencedLock}'s lock: every acquisition gets a strictly increasing token, read inside the
     * call with {@link LockContext#token()}, minted from the server's clock so that it also grows across a failover
     * or a restart of Redis (see {@link LockContext#token()}). Redis keeps each key's last token, without expiry: use
     * it on a bounded set of keys. Queues locally.
     */
    FENCED
}
