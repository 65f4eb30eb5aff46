package dev.padlock.core;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.OnFailure;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * What the interceptor runs for one {@code @Locked} method: render the keys, take the locks in order,
 * proceed, release on every exit. Built once per method; a call allocates only what the locks need.
 */
public abstract class LockOperation {

    private static final System.Logger LOG = System.getLogger(LockOperation.class.getName());

    final LockPlan plan;
    private final KeyRenderer keys;
    private final LockStrategy strategy;
    private final Supplier<RedissonClient> client;
    private final long waitMillis;
    /** A fixed lease, or -1 when the lock is renewed while held (watchdog mode). */
    private final long leaseMillis;
    /** Renews watchdog-mode locks instead of Redisson's watchdog, whose 4.7.0 renewals multiply (see there). */
    private final LeaseRenewal renewal;

    LockOperation(LockPlan plan, Method method, Supplier<RedissonClient> client, LeaseRenewal renewal) {
        this.plan = plan;
        this.keys = KeyRenderer.of(plan, method);
        this.strategy = LockStrategy.of(plan.settings().type());
        this.client = client;
        this.waitMillis = plan.settings().waitTime().toMillis();
        this.leaseMillis = plan.settings().usesWatchdog()
                ? -1
                : plan.settings().leaseTime().toMillis();
        this.renewal = renewal;
    }

    /**
     * The operation for a validated plan, chosen by how the method returns its result. It renews its own
     * watchdog-mode locks; {@link PadlockEngine} shares one renewal among all operations of an application.
     */
    public static LockOperation of(LockPlan plan, Method method, Supplier<RedissonClient> client) {
        return of(plan, method, client, new LeaseRenewal(client));
    }

    static LockOperation of(LockPlan plan, Method method, Supplier<RedissonClient> client, LeaseRenewal renewal) {
        return plan.returnKind() == ReturnKind.COMPLETION_STAGE
                ? new StageOperation(plan, method, client, renewal)
                : new BlockingOperation(plan, method, client, renewal);
    }

    public abstract Object invoke(InvocationContext ctx) throws Exception;

    public LockPlan plan() {
        return plan;
    }

    /** The locks of this call, one per distinct rendered key, in sorted key order. */
    final RLock[] locksFor(Object[] args) {
        String[] names = keys.render(args);
        if (Thread.currentThread().isInterrupted()) {
            // As Lock.lockInterruptibly: an interrupted caller does not start to acquire.
            throw notAcquired(names[0], "the calling thread was interrupted", new InterruptedException());
        }
        RedissonClient redisson;
        try {
            redisson = client.get();
        } catch (RuntimeException e) {
            // Fail closed: no client, no lock, no method body.
            boolean interrupted = e.getCause() instanceof InterruptedException;
            throw notAcquired(
                    names[0],
                    interrupted ? "the calling thread was interrupted" : "no connection to Redis could be made",
                    interrupted ? e.getCause() : e);
        }
        RLock[] locks = new RLock[names.length];
        for (int i = 0; i < names.length; i++) {
            locks[i] = strategy.lock(redisson, names[i]);
        }
        return locks;
    }

    /**
     * Takes every lock in order within one wait budget. On any failure the locks taken so far are released.
     *
     * @param renewing from {@link #renewWhileHeld}: each lock is renewed from the moment it is taken, so one taken
     *     early does not lapse while a later one is awaited
     * @return true when all are held; false when one was not free in time and the caller chose SKIP
     * @throws LockNotAcquiredException otherwise
     */
    final boolean acquireAll(RLock[] locks, long owner, LeaseRenewal.Held renewing) {
        long deadline = locks.length == 1 ? 0 : System.nanoTime() + waitMillis * 1_000_000;
        // Watchdog mode still takes a fixed lease (the watchdog timeout): Redisson then starts no renewal of its
        // own, and Padlock renews the locks while they are held (LeaseRenewal).
        long lease = leaseMillis > 0 ? leaseMillis : renewal.leaseMillis();
        for (int i = 0; i < locks.length; i++) {
            long wait = i == 0 ? waitMillis : Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
            boolean taken;
            try {
                taken = Acquisition.acquire(locks[i], wait, lease, owner);
            } catch (InterruptedException e) {
                stopRenewing(renewing);
                releaseAll(locks, i, owner);
                Thread.currentThread().interrupt();
                throw notAcquired(locks[i].getName(), "the calling thread was interrupted", e);
            } catch (ExecutionException e) {
                stopRenewing(renewing);
                releaseAll(locks, i, owner);
                throw notAcquired(locks[i].getName(), "Redis could not be asked", Acquisition.unwrap(e));
            } catch (RuntimeException e) {
                // e.g. the client shut down under the call: nothing may stay held or registered for renewal
                stopRenewing(renewing);
                releaseAll(locks, i, owner);
                throw e;
            }
            if (!taken) {
                stopRenewing(renewing);
                releaseAll(locks, i, owner);
                if (plan.settings().onFailure() == OnFailure.SKIP) {
                    return false;
                }
                throw notAcquired(locks[i].getName(), "it is held by another caller", null);
            }
            if (renewing != null) {
                renewing.taken(i + 1);
            }
        }
        return true;
    }

    /**
     * In watchdog mode, the renewal of this call's locks, to hand to {@link #acquireAll} and to stop
     * ({@link #stopRenewing}) before releasing them; {@code null} with a fixed lease.
     */
    final LeaseRenewal.Held renewWhileHeld(RLock[] locks, long owner) {
        return leaseMillis > 0 ? null : renewal.renewWhileHeld(this, strategy, locks, owner);
    }

    static void stopRenewing(LeaseRenewal.Held held) {
        if (held != null) {
            held.stop();
        }
    }

    private LockNotAcquiredException notAcquired(String key, String reason, Throwable cause) {
        return new LockNotAcquiredException(key, plan.method(), plan.settings().waitTime(), reason, cause);
    }

    /** Releases the first {@code count} locks, last taken first, and reports any that was already lost. */
    final void releaseAll(RLock[] locks, int count, long owner) {
        for (int i = count - 1; i >= 0; i--) {
            Throwable failure = Acquisition.release(locks[i], owner);
            if (failure != null) {
                releaseFailed(locks[i], failure);
            }
        }
    }

    /** A renewal found the lock no longer held by this call: it expired, or Redis lost it (restart, failover). */
    final void leaseLost(RLock lock) {
        LOG.log(
                System.Logger.Level.WARNING,
                () -> "Lock " + lock.getName() + " for " + plan.method()
                        + " is no longer held while the method runs: renewing its lease found it expired or gone"
                        + " (Redis restarted, flushed or failed over, or this JVM paused longer than the watchdog"
                        + " timeout), so another caller may run at the same time.");
    }

    /** A renewal could not reach Redis; the next tick tries again, until the lease runs out. */
    final void renewalFailed(RLock lock, Throwable failure, long leaseMillis) {
        LOG.log(
                System.Logger.Level.WARNING,
                () -> "Lock " + lock.getName() + " for " + plan.method() + " could not be renewed (" + failure
                        + "); Padlock retries every " + (leaseMillis / 3) + " ms, and the lock lapses if none succeeds"
                        + " within its " + leaseMillis + " ms lease.");
    }

    final void releaseFailed(RLock lock, Throwable failure) {
        if (failure instanceof IllegalMonitorStateException) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "Lock " + lock.getName() + " for " + plan.method()
                            + " was no longer held when the method finished: its lease expired or could not be renewed,"
                            + " so another caller may have run at the same time. Use a longer lease-time, or none so the"
                            + " watchdog renews it.");
        } else {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "Lock " + lock.getName() + " for " + plan.method()
                            + " could not be released (" + failure + "); Redis frees it when its lease or the watchdog"
                            + " timeout runs out.");
        }
    }
}
