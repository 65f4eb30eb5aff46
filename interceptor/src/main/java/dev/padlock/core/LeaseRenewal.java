package dev.padlock.core;

import dev.padlock.LockLost;
import dev.padlock.core.redis.Acquisition;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Keeps the leases of Padlock's calls: renews watchdog-mode locks while their methods run, in place of Redisson's
 * watchdog, and watches every held lock's deadline, so that a holder hears of its loss before Redis can grant the
 * key to anyone else.
 *
 * <p>Why not Redisson's watchdog: in 4.7.0 its renewal task is a timer chain that a flag stops when no lock is left
 * and that the next lock restarts, without cancelling the pending timer. Each lock taken while none was held thus
 * adds a chain, and every chain renews every held lock: after ~16.7k short calls, one held lock was renewed ~16.7k
 * times per period instead of once (reproduced by {@code RenewalStormTest}). So Padlock takes watchdog-mode locks
 * with a fixed lease of the watchdog timeout, which keeps Redisson's watchdog out of it entirely, and renews them
 * here, owner-checked (see {@link dev.padlock.core.redis.LockKind#renew}).
 *
 * <p>Deadlines: each held lock has one (see {@link HeldLocks#confirmed}): the send time of the last acquisition or
 * renewal Redis confirmed, plus the lease, minus a margin for clock drift. Redis cannot tell a holder cut off from it
 * anything, but the holder knows its lease cannot outlast that: at the deadline without a newer confirmation the lock
 * is reported lost ({@link dev.padlock.LockLost.Detection#DEADLINE}) and its local turn is passed on, however long
 * Redisson's own timeouts and retries would still take. A fixed lease that the method outlives is reported the same
 * way, when it ends.
 *
 * <p>One timer chain per instance, woken at the earliest moment any held lock needs attention: a deadline, or a
 * renewal, due once a third of the lease has passed since the last confirmed one (so a call shorter than that costs
 * no renewal), and retried every tenth of the lease while none is confirmed. Per call this is a concurrent-set insert and removal and a comparison under a lock, and no Redis
 * command. If the process dies, nothing renews and the locks lapse within their lease, as with Redisson.
 */
final class LeaseRenewal {

    private static final System.Logger LOG = System.getLogger(LeaseRenewal.class.getName());

    /**
     * Whether a lock is reported lost at its deadline. Always true, except in the test that shows what happens
     * without it (the holder hears of its loss only after another application entered).
     */
    static volatile boolean reportsAtDeadline = true;

    private final Supplier<RedissonClient> client;
    private final Set<HeldLocks> held = ConcurrentHashMap.newKeySet();
    /** The client's watchdog timeout, read on first use: the client is built after deployment. 0 until then. */
    private volatile long leaseMillis;

    private final Object wakes = new Object();
    /** When the chain wakes next ({@link System#nanoTime}), and its task; guarded by {@link #wakes}. */
    private long wakeAt;

    private ScheduledFuture<?> wake;
    private boolean closed;

    LeaseRenewal(Supplier<RedissonClient> client) {
        this.client = client;
    }

    /**
     * One thread for all of a JVM's renewals: it only sends scripts and never blocks on them, and it ends after a
     * minute without held locks, so an undeployed application leaves no thread behind. Created on first use (a
     * holder class), so that a native image build never finds it in its heap.
     */
    private static final class Ticks {
        static final ScheduledThreadPoolExecutor EXECUTOR = ticks();
    }

    private static ScheduledThreadPoolExecutor ticks() {
        ClassLoader padlock = LeaseRenewal.class.getClassLoader();
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "padlock-lease-renewal");
            t.setDaemon(true);
            // Not the context class loader of whichever application thread happened to start it.
            t.setContextClassLoader(padlock);
            return t;
        });
        executor.setKeepAliveTime(1, TimeUnit.MINUTES);
        executor.allowCoreThreadTimeOut(true);
        // A wake moved earlier cancels the later one; keep the queue to what will run.
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /**
     * The lease a watchdog-mode lock is taken with: the client's {@code lockWatchdogTimeout}
     * ({@code padlock.watchdog-timeout} for Padlock's own client), as Redisson's watchdog would use.
     */
    long leaseMillis() {
        long lease = leaseMillis;
        if (lease == 0) {
            lease = client.get().getConfig().getLockWatchdogTimeout();
            leaseMillis = lease;
        }
        return lease;
    }

    /**
     * Watches the call's deadlines, and renews its watchdog-mode locks, from its first acquisition until {@link
     * #stop}. Locks it takes later are picked up as they are confirmed.
     */
    void watch(HeldLocks call) {
        held.add(call);
        wakeBy(nextAttention(call, System.nanoTime()));
    }

    /** Stops watching and renewing the call's locks; they are about to be released. */
    void stop(HeldLocks call) {
        held.remove(call);
    }

    /**
     * The application is stopping: nothing is renewed or watched any more, also when its client lives on (an
     * application-provided one); locks still held lapse with their lease.
     */
    void close() {
        synchronized (wakes) {
            closed = true;
            if (wake != null) {
                wake.cancel(false);
                wake = null;
            }
        }
        held.clear();
    }

    /** Makes sure the chain wakes by {@code at} ({@link System#nanoTime}); {@code Long.MAX_VALUE}: no need. */
    private void wakeBy(long at) {
        if (at == Long.MAX_VALUE) {
            return;
        }
        synchronized (wakes) {
            if (closed || (wake != null && at - wakeAt >= 0)) {
                return;
            }
            if (wake != null) {
                wake.cancel(false);
            }
            wakeAt = at;
            wake = Ticks.EXECUTOR.schedule(this::tick, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    private void tick() {
        synchronized (wakes) {
            wake = null;
        }
        long next = Long.MAX_VALUE;
        try {
            next = attend(System.nanoTime());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Padlock could not renew lock leases; it tries again shortly", e);
            next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 10));
        } finally {
            // Calls watched during this tick scheduled their own wake when they needed an earlier one.
            wakeBy(held.isEmpty() ? Long.MAX_VALUE : next);
        }
    }

    /** Reports overdue locks, sends due renewals; returns when the chain must wake next. */
    private long attend(long now) {
        RedissonClient redisson = null;
        long next = Long.MAX_VALUE;
        for (HeldLocks call : held) {
            if (call.stopped) {
                continue;
            }
            if (call.lapsing) {
                // left to lapse: nothing renewed or reported, the turns pass on when the leases end
                long lapse = call.operation.lapsedBy(call, now);
                if (lapse == Long.MAX_VALUE) {
                    held.remove(call);
                } else if (lapse - next < 0) {
                    next = lapse;
                }
                continue;
            }
            reportOverdue(call, now);
            if (call.operation.leaseMillis <= 0 && renewalDue(call, now)) {
                if (redisson == null) {
                    redisson = usableClient();
                    if (redisson == null) {
                        // The client was shut down with its container: nothing can renew these locks any more.
                        held.clear();
                        return Long.MAX_VALUE;
                    }
                }
                renew(call, redisson, leaseMillis(), now);
            }
            // at least a millisecond ahead: a lock whose deadline passed unreported must not make the chain spin
            long attention = Math.max(nextAttention(call, now) - now, 1_000_000) + now;
            if (attention - next < 0) {
                next = attention;
            }
        }
        return next;
    }

    private RedissonClient usableClient() {
        try {
            RedissonClient redisson = client.get();
            return redisson.isShutdown() || redisson.isShuttingDown() ? null : redisson;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The call's locks whose deadline passed are lost: said now, and their turn is passed on. */
    private static void reportOverdue(HeldLocks call, long now) {
        if (!reportsAtDeadline) {
            return;
        }
        int[] overdue = call.overdue(now);
        if (overdue == null) {
            return;
        }
        for (int index : overdue) {
            LockOperation.deadlinePassed(call, index);
        }
    }

    /** A watchdog-mode call's renewal is due (and no retry is pending for later). */
    private boolean renewalDue(HeldLocks call, long now) {
        return now - renewalDueAt(call, periodNanos()) >= 0
                && (call.nextRenewalNanos == 0 || now - call.nextRenewalNanos >= 0);
    }

    /** A third of the lease after the last confirmation: the deadline is then two thirds of the lease ahead. */
    private long renewalDueAt(HeldLocks call, long period) {
        long earliest = call.earliestDeadline();
        return earliest == Long.MAX_VALUE ? Long.MAX_VALUE : earliest - 2 * period;
    }

    private long periodNanos() {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(3, leaseMillis())) / 3;
    }

    /** When the call next needs attention: its earliest deadline, or its next renewal (watchdog mode). */
    private long nextAttention(HeldLocks call, long now) {
        long deadline = call.earliestDeadline();
        if (call.operation.leaseMillis > 0 || deadline == Long.MAX_VALUE) {
            return deadline;
        }
        long renewal = renewalDueAt(call, periodNanos());
        if (call.nextRenewalNanos != 0 && call.nextRenewalNanos - renewal > 0) {
            renewal = call.nextRenewalNanos;
        }
        return renewal - deadline < 0 ? renewal : deadline;
    }

    private static void renew(HeldLocks call, RedissonClient redisson, long lease, long now) {
        // Not answered within a tenth of the lease (or failed): sent again then, well before the deadline.
        long retryMillis = Math.max(1, lease / 10);
        call.nextRenewalNanos = now + TimeUnit.MILLISECONDS.toNanos(retryMillis);
        LockOperation operation = call.operation;
        int count = call.taken();
        for (int i = 0; i < count; i++) {
            if (call.isLost(i) || call.sharesHold(i) || !call.beginRenewal()) {
                continue;
            }
            int index = i;
            RLock lock = call.locks[i];
            long sent = System.nanoTime();
            CompletionStage<Boolean> renewal;
            try {
                renewal = operation.kind.renew(redisson, lock, call.owner, lease);
            } catch (Throwable e) {
                // counted as in flight above: a release waits for its answer, so it must get one
                renewal = CompletableFuture.failedFuture(e);
            }
            renewal.whenComplete((stillHeld, failure) -> {
                Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
                call.renewalAnswered(cause);
                if (call.stopped || (call.lapsing && !Boolean.TRUE.equals(stillHeld))) {
                    // Released or left to lapse meanwhile: a "not held" answer is about that, not a loss.
                    return;
                }
                if (cause != null) {
                    if (call.firstFailure()) {
                        operation.renewalFailed(lock, cause, retryMillis);
                    }
                } else if (stillHeld) {
                    call.confirmed(index, sent, lease);
                } else {
                    LockLost loss = operation.lost(call, index, LockLost.Detection.RENEWAL, null);
                    if (loss != null) {
                        operation.losses.reportLater(loss);
                        operation.passTurn(call, index);
                    }
                }
            });
        }
    }
}
