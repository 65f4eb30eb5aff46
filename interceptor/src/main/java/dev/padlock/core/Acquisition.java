package dev.padlock.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
        CompletableFuture<Boolean> future = pending.toCompletableFuture();
        try {
            return future.get(waitMillis + ANSWER_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException | TimeoutException e) {
            releaseIfTaken(future, lock, owner);
            if (e instanceof InterruptedException) {
                throw (InterruptedException) e;
            }
            throw new ExecutionException("Redis did not answer the lock request", e);
        }
    }

    private static void releaseIfTaken(CompletableFuture<Boolean> acquisition, RLock lock, long owner) {
        acquisition.thenAccept(taken -> {
            if (Boolean.TRUE.equals(taken)) {
                lock.unlockAsync(owner);
            }
        });
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
