package dev.padlock.core.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.redisson.RedissonFencedLock;
import org.redisson.api.RLock;
import org.redisson.command.NoSyncedSlavesException;

/**
 * Takes and gives back Redisson locks for an explicit owner id, safe against the interrupted-caller trap.
 *
 * <p>Redisson's blocking {@code tryLock} throws when the caller is interrupted while the lock script has
 * already run on the server, so the key stays held (with the watchdog, for ever). Here acquisition is always
 * the asynchronous call, and a caller that stops waiting for any reason cancels it: the acquisition then
 * releases the lock exactly once if it turns out to have been taken (see {@code dev.padlock.core.operation.Acquirer#acquireAllAsync}),
 * which also keeps a reentrant hold count right.
 *
 * <p>Redisson 4.7.0's asynchronous waiting is wasteful under contention: {@code LockPubSub.onMessage} answers an
 * unlock message by running one asynchronous waiter's retry and also by banking a semaphore permit meant for
 * blocked threads, which the next asynchronous waiter to fail spends on an immediate retry (one more EVALSHA per
 * unlock). Padlock's exclusive locks therefore queue their callers in {@code dev.padlock.core.turns.LocalTurns} first, so that at most
 * one call per key and application waits here; {@code ContendedRoundTripsTest} counts the attempts.
 */
public final class Acquisition {

    /**
     * Beyond the wait itself, how long a caller waits for Redisson to answer. A healthy server answers in milliseconds
     * (with replica confirmation, within {@code padlock.redis.replica-timeout} more), and Redisson gives up on a
     * command after 3 s; but during a failover, and when no replica confirms a lock, it retries for many seconds (18 s
     * for a 1 s wait, measured). The caller is told it did not get the lock after this; whatever the attempt takes
     * later is released.
     */
    private static final long ANSWER_GRACE_MILLIS = TimeUnit.SECONDS.toMillis(5);

    private Acquisition() {}

    /**
     * One lock, for {@code owner}, within {@code waitMillis}.
     *
     * @param leaseMillis the lease the lock is taken with
     * @return whether it was taken
     */
    public static CompletableFuture<Boolean> tryLock(RLock lock, long waitMillis, long leaseMillis, long owner) {
        return lock.tryLockAsync(waitMillis, leaseMillis, TimeUnit.MILLISECONDS, owner)
                .toCompletableFuture();
    }

    /**
     * A fenced lock ({@link TimeFencedLock}, whose tokens never go backwards), taken with the form that honours both
     * the wait and the lease and returns the token: {@code lockAndGetToken(lease, unit)} ignores the lease, and {@code
     * tryLockAndGetToken()} blocks rather than trying once. That form is public on Redisson's class only, not on {@code
     * RFencedLock}.
     *
     * @return the fencing token, or {@code null} when the lock was not free within {@code waitMillis}
     */
    public static CompletableFuture<Long> tryFenced(RLock lock, long waitMillis, long leaseMillis, long owner) {
        return ((RedissonFencedLock) lock)
                .tryLockAndGetTokenAsync(waitMillis, leaseMillis, TimeUnit.MILLISECONDS, owner)
                .toCompletableFuture();
    }

    /** How long a caller waits for Redis to answer beyond its wait, for messages. */
    public static long answerGraceSeconds() {
        return TimeUnit.MILLISECONDS.toSeconds(ANSWER_GRACE_MILLIS);
    }

    /** How long a caller waits for an acquisition of {@code waitMillis}: the wait, and {@link #ANSWER_GRACE_MILLIS}. */
    public static long answerDeadlineMillis(long waitMillis) {
        return waitMillis + ANSWER_GRACE_MILLIS;
    }

    /**
     * Releases and waits for Redis to confirm, without giving up when the caller is interrupted (the flag is
     * restored afterwards): a lock must be released on every exit, interruption included.
     *
     * @return {@code null} when released, else why not ({@link IllegalMonitorStateException} when the lock was
     *     no longer held by this owner: its lease ran out)
     */
    public static Throwable release(RLock lock, long owner) {
        return awaitUninterruptibly(unlock(lock, owner));
    }

    /**
     * Waits for {@code future} (at most {@link #ANSWER_GRACE_MILLIS}) without giving up when the caller is
     * interrupted; the flag is restored afterwards.
     *
     * @return {@code null} when it completed normally, else its failure (a {@link TimeoutException} when it did not
     *     complete in time)
     */
    public static Throwable awaitUninterruptibly(CompletableFuture<?> future) {
        return awaitUninterruptibly(future, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_GRACE_MILLIS));
    }

    /**
     * Waits for {@code future} until {@code end} ({@link System#nanoTime}) without giving up when the caller is
     * interrupted; the flag is restored afterwards.
     *
     * @return {@code null} when it completed normally, else its failure (a {@link TimeoutException} when it did not
     *     complete in time)
     */
    public static Throwable awaitUninterruptibly(CompletableFuture<?> future, long end) {
        return awaitUninterruptibly(future, end, System::nanoTime);
    }

    /** As {@link #awaitUninterruptibly(CompletableFuture, long)}, {@code end} read on {@code ticker}. */
    public static Throwable awaitUninterruptibly(CompletableFuture<?> future, long end, LongSupplier ticker) {
        if (future.isDone() && !future.isCompletedExceptionally()) {
            return null;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    future.get(Math.max(0, end - ticker.getAsLong()), TimeUnit.NANOSECONDS);
                    return null;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return unwrap(e.getCause());
                } catch (TimeoutException e) {
                    return e;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Asks Redis to release {@code lock} for {@code owner}; a failure to even ask (e.g. the client shut down) comes
     * back in the future too, so that whatever follows a release always runs.
     */
    public static CompletableFuture<Void> unlock(RLock lock, long owner) {
        try {
            return lock.unlockAsync(owner).toCompletableFuture();
        } catch (Throwable e) {
            // an Error too: the turn is passed on and the loss reported after the answer, whatever it is
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Whether {@code owner} of this client still holds {@code lock} in Redis, asked of the master (one {@code HEXISTS}
     * of the owner's hash field). Owner ids are never reused, so "held" also means held without a break since the
     * owner took it: nobody else can have written that field. A failure to even ask comes back in the future.
     */
    public static CompletableFuture<Boolean> stillHeld(RLock lock, long owner) {
        try {
            return lock.isHeldByThreadAsync(owner).toCompletableFuture();
        } catch (Throwable e) {
            // an Error too: a check is awaited by a release and by the call that handed the hold on
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Why an acquisition that failed with {@code cause} did not take the lock, for the caller's exception: Redis could
     * not be asked, or (with replica confirmation) no replica confirmed it, so Redisson gave it back.
     */
    public static String whyNotAsked(Throwable cause) {
        return cause instanceof NoSyncedSlavesException
                ? "no replica of the master confirmed it within padlock.redis.replica-timeout, so it was given back"
                        + " (a failover would have lost it); check the replicas' link to the master, or raise"
                        + " padlock.redis.replica-timeout for replicas far away"
                : "Redis could not be asked";
    }

    public static Throwable unwrap(Throwable t) {
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
