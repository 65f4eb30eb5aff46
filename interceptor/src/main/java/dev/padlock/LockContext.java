package dev.padlock;

import java.time.Instant;
import java.util.List;

/**
 * The lock of the {@link Locked} call running on the current thread, for business code inside that call:
 *
 * <pre>{@code
 * @Inject LockContext lock;
 *
 * @Locked(value = "ledger", key = "{account}", type = LockType.FENCED)
 * public void post(String account, Entry entry) {
 *     ledger.write(account, entry, lock.token()); // the store rejects writes with an older token
 * }
 * }</pre>
 *
 * <p>Valid on the thread that runs the method body, for the duration of the body; in a nested {@code @Locked}
 * call it describes the innermost one. A method returning a {@code CompletionStage} sees it while the method
 * itself runs, not in stages that complete later on other threads: read what you need first. Outside a locked
 * call, {@link #isActive()} is false and every other method throws {@link IllegalStateException}.
 */
public interface LockContext {

    /** Whether a {@code @Locked} call is running on this thread. */
    boolean isActive();

    /** The Redis key of the lock, e.g. {@code padlock:stock:A-42}; the first in key order when there are several. */
    String key();

    /** Every Redis key of the call, in the order they were taken (sorted). */
    List<String> keys();

    /** When the call took its lock, the first of them when there are several (this JVM's clock). */
    Instant acquiredAt();

    /**
     * The fencing token of a {@link LockType#FENCED} lock: a number that strictly increases with each acquisition
     * of that key, across holders, JVMs and restarts of this application (not across a Redis that lost its
     * data). Hand it to the resource the lock protects so it can reject writes carrying a smaller token than one
     * it has seen: that keeps a holder whose lease ran out (a long GC pause, a partition) from corrupting data.
     * With several keys, the token of the first ({@link #key()}).
     *
     * @throws IllegalStateException outside a locked call, or when the lock type is not {@code FENCED}
     */
    long token();

    /**
     * The fencing token of one key of a multi-key {@link LockType#FENCED} call.
     *
     * @throws IllegalArgumentException when {@code key} is not one of {@link #keys()}
     */
    long token(String key);
}
