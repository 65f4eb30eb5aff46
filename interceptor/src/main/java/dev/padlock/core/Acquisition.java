package dev.padlock.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.redisson.RedissonFencedLock;
import org.redisson.api.RFencedLock;
import org.redisson.api.RFuture;
import org.redisson.api.RLock;

/**
 * Takes and gives back Redisson locks for an explicit owner id, safe against the interrupted-caller trap.
 *
 * <p>Redisson's blocking {@code tryLock} throws when the caller is interrupted while the lock script has
 * already run on the server, so the key stays held (with the watchdog, for ever). Here acquisition is always
 * the asynchronous call: if the caller stops waiting for any reason, the pending acquisition is given a
 * continuation that releases the lock exactly once if it turns out to have been taken, which also keeps a
 * reentrant hold count right.
 *
 * <p>Under contention this costs about one more failed lock attempt per call than the blocking calls (one
 * EVALSHA, four commands with those run inside the script), and the cause is in Redisson 4.7.0, not here:
 * {@code LockPubSub.onMessage} answers an unlock message by running one asynchronous waiter's retry and also
 * by banking a semaphore permit meant for blocked threads, which the next asynchronous waiter to fail spends on
 * an immediate retry. Padlock's own waiting could avoid it only by re-implementing Redisson's wait loop over
 * its internal pub/sub classes. {@code ContendedRoundTripsTest} holds {@code @Locked} to the asynchronous
 * call's count, and to at most that one attempt over the blocking ones.
 */
final class Acquisition {

    /**
     * Beyond the wait itself, how long to wait for Redisson to answer: its own timeouts and retries end far
     * sooner, this only guards against a future that never completes.
     */
    private static final long ANSWER_GRACE_MILLIS = TimeUnit.SECONDS.toMillis(60);

    private Acquisition() {}

    /**
     * @param leaseMillis a fixed lease, or -1 for the watchdog
     * @return whether the lock was taken within {@code waitMillis}
     * @throws InterruptedException when the caller was interrupted; nothing is left held
     * @throws ExecutionException when Redis could not be asked; nothing is left held that Padlock knows of
     */
    static boolean acquire(RLock lock, long waitMillis, long leaseMillis, long owner)
            throws InterruptedException, ExecutionException {
        RFuture<Boolean> pending = lock.tryLockAsync(waitMillis, leaseMillis, TimeUnit.MILLISECONDS, owner);
        return Boolean.TRUE.equals(await(pending.toCompletableFuture(), Boolean.TRUE::equals, lock, waitMillis, owner));
    }

    /**
     * A fenced lock, taken with the form that honours both the wait and the lease and returns the token in the
     * same script: {@code lockAndGetToken(lease, unit)} ignores the lease, and {@code tryLockAndGetToken()} blocks
     * rather than trying once.
     *
     * @return the fencing token, or {@code null} when the lock was not free within {@code waitMillis}
     */
    static Long acquireFenced(RLock lock, long waitMillis, long leaseMillis, long owner)
            throws InterruptedException, ExecutionException {
        if (!(lock instanceof RedissonFencedLock fenced)) {
            // Not Redisson's implementation (a client wrapper): take it as any lock, then read the token. While this
            // owner holds the lock nobody else can take it, so the counter is still this acquisition's.
            if (!acquire(lock, waitMillis, leaseMillis, owner)) {
                return null;
            }
            return await(((RFencedLock) lock).getTokenAsync().toCompletableFuture(), t -> false, lock, 0, owner);
        }
        RFuture<Long> pending = fenced.tryLockAndGetTokenAsync(waitMillis, leaseMillis, TimeUnit.MILLISECONDS, owner);
        return await(pending.toCompletableFuture(), token -> token != null, lock, waitMillis, owner);
    }

    /** The asynchronous form of {@link #acquireFenced}: the token, or {@code null} when not free in time. */
    static CompletableFuture<Long> fencedAsync(RLock lock, long waitMillis, long leaseMillis, long owner) {
        if (lock instanceof RedissonFencedLock fenced) {
            return fenced.tryLockAndGetTokenAsync(waitMillis, leaseMillis, TimeUnit.MILLISECONDS, owner)
                    .toCompletableFuture();
        }
        return lock.tryLockAsync(waitMillis, leaseMillis, TimeUnit.MILLISECONDS, owner)
                .toCompletableFuture()
                .thenCompose(taken -> Boolean.TRUE.equals(taken)
                        ? ((RFencedLock) lock).getTokenAsync().toCompletableFuture()
                        : CompletableFuture.completedFuture(null));
    }

    /**
     * Waits for an acquisition. If the caller stops waiting (interrupted, or no answer), the lock is released once
     * the acquisition turns out to have taken it ({@code taken}).
     */
    private static <T> T await(CompletableFuture<T> future, Predicate<T> taken, RLock lock, long waitMillis, long owner)
            throws InterruptedException, ExecutionException {
        try {
            return future.get(waitMillis + ANSWER_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException | TimeoutException e) {
            future.thenAccept(result -> {
                if (taken.test(result)) {
                    lock.unlockAsync(owner);
                }
            });
            if (e instanceof InterruptedException) {
                throw (InterruptedException) e;
            }
            throw new ExecutionException("Redis did not answer the lock request", e);
        }
    }

    /**
     * Releases and waits for Redis to confirm, without giving up when the caller is interrupted (the flag is
     * restored afterwards): a lock must be released on every exit, interruption included.
     *
     * @return {@code null} when released, else why not ({@link IllegalMonitorStateException} when the lock was
     *     no longer held by this owner: its lease ran out)
     */
    static Throwable release(RLock lock, long owner) {
        CompletableFuture<Void> future = lock.unlockAsync(owner).toCompletableFuture();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    future.get(ANSWER_GRACE_MILLIS, TimeUnit.MILLISECONDS);
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

    static Throwable unwrap(Throwable t) {
        while ((t instanceof ExecutionException || t instanceof java.util.concurrent.CompletionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
