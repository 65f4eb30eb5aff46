package dev.padlock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The lock of the {@link Locked} call (or the code run through {@link Locks}) running on the current thread, for
 * business code inside that call:
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

    /** Whether a {@code @Locked} call, or code run through {@link Locks}, is running on this thread. */
    boolean isActive();

    /** The lock name: {@link Locked#value()} (or its default), or the name given to {@link Locks#on}, e.g. {@code stock}. */
    String name();

    /** The Redis key of the lock, e.g. {@code padlock:stock:A-42}; the first in key order when there are several. */
    String key();

    /** Every Redis key of the call, in the order they were taken (sorted). */
    List<String> keys();

    /** When the call took its lock, the first of them when there are several (this JVM's clock). */
    Instant acquiredAt();

    /**
     * The least time the call's keys stay held from {@link #acquiredAt()} ({@link Locked#holdAtLeast()}, or
     * {@code padlock.locks."<name>".hold-at-least}): if the call ends sooner, its keys expire in Redis at
     * {@code acquiredAt().plus(holdAtLeast())} instead of being released. {@link Duration#ZERO} when none.
     */
    Duration holdAtLeast();

    /**
     * How long the call can still count on its locks: until the earliest of their deadlines, each the send time of
     * the last acquisition or renewal Redis confirmed, plus the lease, minus a margin for clock drift (1 % of the
     * lease + 20 ms). With the watchdog (no {@code leaseTime}) renewals keep moving it forward, so it falls from the
     * lease towards two thirds of it and back; with a fixed lease it only falls. {@link Duration#ZERO} once a lock was
     * lost or its deadline passed.
     */
    Duration remaining();

    /**
     * {@link #remaining()} in whole seconds, rounded down but at least 1, for a timeout an I/O call takes in seconds;
     * JDBC's, where 0 would mean no timeout at all:
     *
     * <pre>{@code
     * statement.setQueryTimeout(lock.remainingSeconds()); // the database gives up before the lock can
     * }</pre>
     *
     * For a timeout taken as a {@code Duration}, hand on {@link #remaining()} after {@link #checkHeld()}, e.g. {@code
     * HttpRequest.newBuilder(uri).timeout(lock.remaining())}. With the watchdog, renewals keep moving the time left
     * forward, so this is at most the lease: an I/O call that may rightly take longer needs a longer lease.
     *
     * @throws LockLostException when a lock was lost or its deadline passed, as {@link #checkHeld()}
     */
    int remainingSeconds();

    /**
     * Whether every lock of the call is still held as far as this JVM can tell: none was found lost and none has
     * passed its deadline (see {@link #remaining()}). Redis may know better only in one direction: a lock this says is
     * held can still have been lost to a Redis that failed over or restarted without persistence.
     */
    boolean isHeld();

    /**
     * Throws unless {@link #isHeld()}: call it right before an irreversible step (a commit, a payment, a message
     * sent), so that a holder whose lease ran out does not take it.
     *
     * <pre>{@code
     * @Locked(value = "payment", key = "{order.id}")
     * public void pay(Order order) {
     *     Charge charge = psp.prepare(order);
     *     lock.checkHeld();          // still ours? if not, LockLostException and nothing was charged
     *     psp.capture(charge);
     * }
     * }</pre>
     *
     * A check narrows the window, it cannot close it: the step itself still runs after the check. Where the resource
     * can compare numbers, a {@link LockType#FENCED} lock's {@link #token()} closes it.
     *
     * @throws LockLostException naming the lock that was lost, or whose deadline passed
     */
    void checkHeld();

    /**
     * Runs {@code action} on a Padlock thread if one of the call's locks is found lost while the call runs, until the
     * returned registration is closed: the way to stop I/O that an interrupt does not reach, such as a JDBC statement
     * waiting for its database. Whatever {@code on-lease-lost} says; with {@code interrupt} the body's thread is
     * interrupted as well. Closing the registration waits for an action under way, so the action never runs after it.
     *
     * <pre>{@code
     * try (PreparedStatement update = connection.prepareStatement(sql);
     *         LockContext.LossRegistration stop = lock.onLoss(update::cancel)) {
     *     update.setQueryTimeout(lock.remainingSeconds());
     *     update.executeUpdate(); // ends with an SQLException when the lock is lost meanwhile
     * }
     * }</pre>
     *
     * An action that throws is logged; the others still run. Nothing runs after the call ended.
     *
     * @throws LockLostException when a lock was lost already (the action is not kept: do not start the I/O)
     */
    LossRegistration onLoss(LossAction action);

    /** What {@link #onLoss} runs when a lock is lost: e.g. {@code statement::cancel}. */
    @FunctionalInterface
    interface LossAction {
        void stop() throws Exception;
    }

    /** An action given to {@link #onLoss}; closing it removes the action (waiting for it if it is running). */
    interface LossRegistration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * The fencing token of a {@link LockType#FENCED} lock: a number that strictly increases with each acquisition
     * of that key, across holders, JVMs and restarts of this application, and across a failover or a restart of
     * Redis that lost the last token: it is the larger of the key's last token plus one and the Redis server's clock
     * in milliseconds &times; 1024 (about 1.8 &times; 10^15 in 2026). It can go back only where a server that lost
     * the last token also has a clock behind the previous master's by more than the time between the two
     * acquisitions. Hand it to the resource the lock protects so it can reject writes carrying a token not larger than
     * one it has seen: that keeps a holder whose lease ran out (a long GC pause, a partition) from corrupting data.
     * With several keys, the token of the first ({@link #key()}).
     *
     * @throws IllegalStateException outside a locked call, or when the lock type is not {@code FENCED}
     */
    long token();

    /**
     * The fencing token of one key of a multi-key {@link LockType#FENCED} call.
     *
     * <pre>{@code
     * @Locked(value = "ledger", key = {"{from}", "{to}"}, type = LockType.FENCED)
     * public void transfer(String from, String to, long cents) {
     *     for (String key : lock.keys()) {
     *         ledger.fence(key, lock.token(key));
     *     }
     *     ...
     * }
     * }</pre>
     *
     * @param key one of {@link #keys()}, e.g. {@code padlock:ledger:A-42}
     * @throws IllegalArgumentException when {@code key} is not one of {@link #keys()}
     * @throws IllegalStateException outside a locked call, or when the lock type is not {@code FENCED}
     */
    long token(String key);
}
