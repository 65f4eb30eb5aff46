package dev.padlock.testkit;

import dev.padlock.LockType;
import dev.padlock.core.client.Secrets;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A lock key held by {@link OtherOwner} until {@link #close()}: taken by a Redisson client of its own, with a finite
 * lease renewed every third of it. Use it in try-with-resources so the key is released also when the test fails.
 */
public final class HeldLock implements AutoCloseable {

    /** The owner id in Redis; the client's own id already makes the owner differ from every other client's. */
    private static final long OWNER = 1;

    private final RedissonClient client;
    private final LockKind kind;
    private final RLock lock;
    private final LockType type;
    private final long leaseMillis;
    private final long token;
    private final ScheduledExecutorService renewal;
    private volatile boolean lost;
    private boolean closed;

    private HeldLock(RedissonClient client, LockKind kind, RLock lock, LockType type, long leaseMillis, long token) {
        this.client = client;
        this.kind = kind;
        this.lock = lock;
        this.type = type;
        this.leaseMillis = leaseMillis;
        this.token = token;
        this.renewal = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "padlock-testkit-renewal " + lock.getName());
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(1, leaseMillis / 3);
        renewal.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * @param where the Redis, as messages name it (its password masked)
     * @param secrets texts no message, nor the message of a cause passed on, may show (the password of the address)
     */
    static HeldLock take(
            Config config, String where, Secrets secrets, LockType type, String key, Duration lease, Duration wait) {
        RedissonClient client;
        try {
            client = Redisson.create(config);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "OtherOwner cannot hold " + key + ": no connection to " + where + ": " + rootCause(e, secrets),
                    shown(e, secrets));
        }
        try {
            LockKind kind = LockKind.of(type);
            RLock lock = kind.lock(client, key);
            long waitMillis = wait.toMillis();
            long leaseMillis = lease.toMillis();
            long token = 0;
            boolean taken;
            if (kind.fenced()) {
                CompletableFuture<Long> acquiring = Acquisition.tryFenced(lock, waitMillis, leaseMillis, OWNER);
                Long answer = await(acquiring, key, where, secrets);
                taken = answer != null;
                token = taken ? answer : 0;
            } else {
                taken = await(Acquisition.tryLock(lock, waitMillis, leaseMillis, OWNER), key, where, secrets);
            }
            if (!taken) {
                throw new IllegalStateException("OtherOwner could not take " + key + " (" + type + ") on " + where
                        + " within " + wait.toMillis() + " ms: another owner holds it (the application under test,"
                        + " still in a call, or an earlier HeldLock that was not closed). Close earlier holds"
                        + " (try-with-resources), or give OtherOwner.waitTime(...) more time");
            }
            return new HeldLock(client, kind, lock, type, leaseMillis, token);
        } catch (RuntimeException | Error e) {
            client.shutdown();
            throw e;
        }
    }

    /** Waits for an acquisition also when interrupted (a lock taken meanwhile would otherwise stay held). */
    private static <T> T await(CompletableFuture<T> acquiring, String key, String where, Secrets secrets) {
        Throwable failure = Acquisition.awaitUninterruptibly(acquiring);
        if (failure != null) {
            throw new IllegalStateException(
                    "OtherOwner could not take " + key + " on " + where + ": " + rootCause(failure, secrets),
                    shown(failure, secrets));
        }
        return acquiring.join();
    }

    /**
     * What Redis or the network said: the deepest cause, which Redisson wraps in messages that say less; without the
     * secrets, which a parser's message may quote (Redisson's, of an address it misread).
     */
    private static String rootCause(Throwable failure, Secrets secrets) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getName() : root.getMessage();
        int channel = message.indexOf(". channel: ");
        return secrets.strikeOut(channel > 0 ? message.substring(0, channel) : message);
    }

    /** Links of a cause chain looked at; a chain is a few links long, a loop is not followed for ever. */
    private static final int MAX_CAUSES = 32;

    /**
     * The failure to pass on as the cause: itself when no message of its chain shows a secret, else a copy of the
     * chain with the secrets struck out of every message (each link names the class it copies, and keeps its stack
     * trace), so that a test report's stack trace does not show what the message leaves out.
     */
    private static Throwable shown(Throwable failure, Secrets secrets) {
        boolean showsSecret = false;
        Throwable link = failure;
        for (int i = 0; link != null && i < MAX_CAUSES && !showsSecret; i++, link = link.getCause()) {
            String message = link.getMessage();
            showsSecret = message != null && !secrets.strikeOut(message).equals(message);
        }
        return showsSecret ? copy(failure, secrets, 0) : failure;
    }

    private static Throwable copy(Throwable failure, Secrets secrets, int depth) {
        Throwable cause = failure.getCause();
        StruckOut copy = new StruckOut(
                failure.getClass().getName()
                        + (failure.getMessage() == null ? "" : ": " + secrets.strikeOut(failure.getMessage())),
                cause == null || cause == failure || depth + 1 >= MAX_CAUSES ? null : copy(cause, secrets, depth + 1));
        copy.setStackTrace(failure.getStackTrace());
        return copy;
    }

    /** One link of a cause chain whose messages quoted a secret: the class it copies and its message, struck out. */
    private static final class StruckOut extends RuntimeException {
        StruckOut(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The Redis key held, e.g. {@code padlock:stock:A-42}. */
    public String key() {
        return lock.getName();
    }

    /** The lock type it is held as. */
    public LockType type() {
        return type;
    }

    /**
     * The fencing token the hold got, for a {@link LockType#FENCED} hold: a later holder of the key gets a larger one.
     *
     * @throws IllegalStateException for any other type
     */
    public long token() {
        if (!kind.fenced()) {
            throw new IllegalStateException("HeldLock.token(): " + key() + " is held as " + type
                    + ", which has no fencing token; hold it with OtherOwner.type(LockType.FENCED)");
        }
        return token;
    }

    /**
     * Whether Redis still records this hold: false after {@link #close()}, or once the key was lost (Redis restarted or
     * flushed, or a renewal came too late). Asks Redis.
     */
    public synchronized boolean isHeld() {
        return !closed && !lost && lock.isHeldByThread(OWNER);
    }

    /**
     * Stops renewing, releases the key (waiting for Redis to confirm) and shuts the client down. A key that is no
     * longer held, or a Redis that is gone, is not an error here: the key then lapses within its lease. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        renewal.shutdownNow();
        try {
            if (!lost) {
                Acquisition.release(lock, OWNER);
            }
        } finally {
            client.shutdown();
        }
    }

    private void renew() {
        try {
            Boolean held = kind.renew(client, lock, OWNER, leaseMillis)
                    .toCompletableFuture()
                    .get(leaseMillis, TimeUnit.MILLISECONDS);
            if (!Boolean.TRUE.equals(held)) {
                lost = true;
                renewal.shutdown();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // Redis unreachable for now: the next period tries again, while the lease may still run.
        }
    }

    @Override
    public String toString() {
        return "HeldLock[" + key() + ", " + type + (closed ? ", closed" : lost ? ", lost" : ", held") + "]";
    }
}
