package dev.padlock;

/** The kind of Redisson lock behind a {@link Locked} method or a named lock bean. */
public enum LockType {
    /** {@code RedissonClient.getLock}: reentrant, no ordering among waiters. */
    REENTRANT,
    /** {@code RedissonClient.getFairLock}: waiters acquire in the order they asked. */
    FAIR,
    /** The read side of {@code RedissonClient.getReadWriteLock}: shared with other readers. */
    READ,
    /** The write side of {@code RedissonClient.getReadWriteLock}: excludes readers and writers. */
    WRITE,
    /** {@code RedissonClient.getSpinLock}: polls with backoff instead of pub/sub. */
    SPIN,
    /** {@code RedissonClient.getFencedLock}: every acquisition gets a strictly increasing token. */
    FENCED
}
