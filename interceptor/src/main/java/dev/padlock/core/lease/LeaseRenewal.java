package dev.padlock.core.lease;

import dev.padlock.LockLost;
import dev.padlock.core.PadlockThreads;
import dev.padlock.core.call.CallFacts;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LeaseBook;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
 * here, owner-checked (see {@link LockKind#renew}).
 *
 * <p>Deadlines: each held lock has one (see {@link LeaseBook#confirmed}): the send time of the last acquisition or
 * renewal Redis confirmed, plus the lease, minus a margin for clock drift. Redis cannot tell a holder cut off from it
 * anything, but the holder knows its lease cannot outlast that: at the deadline without a newer confirmation the lock
 * is reported lost ({@link LockLost.Detection#DEADLINE}) and its local turn is passed on, however long
 * Redisson's own timeouts and retries would still take. A fixed lease that the method outlives is reported the same
 * way, when it ends.
 *
 * <p>One timer chain per instance, woken at the earliest moment any held lock needs attention: a deadline, or a
 * renewal, due once a third of the lease has passed since the last confirmed one (so a call shorter than that costs
 * no renewal), and retried every tenth of the lease while none is confirmed. Per call this is a concurrent-map insert
 * and removal and a comparison under a lock, and no Redis command. If the process dies, nothing renews and the locks
 * lapse within their lease, as with Redisson.
 *
 * <p>It knows calls ({@link LockedCall}), what they say of themselves ({@link CallFacts}), and how their losses are
 * reported ({@link LockLosses}); never the operation behind them. The timer chain and what it does at each wake stay in one class, a little longer than the
 * others: both work on the same watched calls and the same lease, and the chain's rules (wake by the earliest need,
 * never spin, end when nothing is held) read best beside the needs they serve.
 */
public final class LeaseRenewal {

    private static final System.Logger LOG = System.getLogger(LeaseRenewal.class.getName());

    private final Supplier<RedissonClient> client;
    /** The calls watched. */
    private final Set<LockedCall> held = ConcurrentHashMap.newKeySet();
    /** The client's watchdog timeout, read on first use: the client is built after deployment. 0 until then. */
    private volatile long leaseMillis;

    private final Object wakes = new Object();
    /** When the chain wakes next ({@link System#nanoTime}), and its task; guarded by {@link #wakes}. */
    private long wakeAt;

    private ScheduledFuture<?> wake;
    private boolean closed;

    /**
     * Whether a lock is reported lost at its deadline: always, but in the control of a test that shows what happens
     * without it (the holder hears of its loss only after another application entered); see {@code EngineOptions}.
     */
    private final boolean reportsAtDeadline;

    public LeaseRenewal(Supplier<RedissonClient> client, boolean reportsAtDeadline) {
        this.client = client;
        this.reportsAtDeadline = reportsAtDeadline;
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
        ScheduledThreadPoolExecutor executor =
                new ScheduledThreadPoolExecutor(1, PadlockThreads.daemon("padlock-lease-renewal"));
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
    public long leaseMillis() {
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
    public void watch(LockedCall call) {
        held.add(call);
        wakeBy(nextAttention(call, System.nanoTime()));
    }

    /** Stops watching and renewing the call's locks; they are about to be released. */
    public void stop(LockedCall call) {
        held.remove(call);
    }

    /** The locks of the calls watched now, by key: a live view's picture. */
    public List<LiveLocks.Held> held() {
        List<LiveLocks.Held> locks = new ArrayList<>();
        long now = System.nanoTime();
        held.forEach(call -> call.describeHeld(!call.facts.hasFixedLease(), now, locks));
        locks.sort(Comparator.comparing(LiveLocks.Held::key));
        return locks;
    }

    /**
     * The application is stopping: nothing is renewed or watched any more, also when its client lives on (an
     * application-provided one); locks still held lapse with their lease.
     */
    public void close() {
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
        for (LockedCall call : held) {
            if (call.isReleased()) {
                continue;
            }
            if (call.isLapsing()) {
                // left to lapse: nothing renewed or reported, the turns pass on when the leases end
                long lapse = lapsedBy(call, now);
                if (lapse == Long.MAX_VALUE) {
                    held.remove(call);
                } else if (lapse - next < 0) {
                    next = lapse;
                }
                continue;
            }
            reportOverdue(call, now);
            boolean fixed = call.facts.hasFixedLease();
            if (fixed ? extensionDue(call, now) : renewalDue(call, now)) {
                if (redisson == null) {
                    redisson = usableClient();
                    if (redisson == null) {
                        // The client was shut down with its container: nothing can renew these locks any more.
                        held.clear();
                        return Long.MAX_VALUE;
                    }
                }
                if (fixed) {
                    extendOwed(call, redisson, now);
                } else {
                    renew(call, redisson, leaseMillis(), now);
                }
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
    private void reportOverdue(LockedCall call, long now) {
        if (!reportsAtDeadline) {
            return;
        }
        int[] overdue = call.overdue(now);
        if (overdue == null) {
            return;
        }
        for (int index : overdue) {
            LockLosses.deadlinePassed(call, index);
        }
    }

    /** A watchdog-mode call's renewal is due (and no retry is pending for later). */
    private boolean renewalDue(LockedCall call, long now) {
        return now - renewalDueAt(call, periodNanos()) >= 0 && !call.retryPending(now);
    }

    /** A third of the lease after the last confirmation: the deadline is then two thirds of the lease ahead. */
    private long renewalDueAt(LockedCall call, long period) {
        long earliest = call.earliestDeadline();
        return earliest == Long.MAX_VALUE ? Long.MAX_VALUE : earliest - 2 * period;
    }

    private long periodNanos() {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(3, leaseMillis())) / 3;
    }

    /** When the call next needs attention: its earliest deadline, or its next renewal (watchdog mode). */
    private long nextAttention(LockedCall call, long now) {
        long deadline = call.earliestDeadline();
        if (deadline == Long.MAX_VALUE) {
            return deadline;
        }
        long renewal = call.facts.hasFixedLease() ? call.earliestExtensionDue() : renewalDueAt(call, periodNanos());
        if (renewal == Long.MAX_VALUE) {
            return deadline;
        }
        long retry = call.retryAt();
        if (retry != 0 && retry - renewal > 0) {
            renewal = retry;
        }
        return renewal - deadline < 0 ? renewal : deadline;
    }

    private static void renew(LockedCall call, RedissonClient redisson, long lease, long now) {
        // Not answered within a tenth of the lease (or failed): sent again then, well before the deadline.
        long retryMillis = Math.max(1, lease / 10);
        call.retryAfter(now + TimeUnit.MILLISECONDS.toNanos(retryMillis));
        int count = call.takenCount();
        for (int i = 0; i < count; i++) {
            if (!call.isLost(i) && !call.sharesHold(i)) {
                renewOne(call, redisson, i, lease, retryMillis);
            }
        }
    }

    /**
     * A fixed-lease call owed a lease it was handed with ({@link HandOff}) needs an extension now (and no retry is
     * pending for later).
     */
    private static boolean extensionDue(LockedCall call, long now) {
        return now - call.earliestExtensionDue() >= 0 && !call.retryPending(now);
    }

    /**
     * Extends the locks handed to a fixed-lease call whose extension is due, owner-checked, to the end of the lease
     * owed to this holder; retried like a renewal while none is confirmed. Its deadline moves when Redis confirms.
     */
    private static void extendOwed(LockedCall call, RedissonClient redisson, long now) {
        long retryMillis = Math.max(1, call.owedLeaseMillis() / 10);
        call.retryAfter(now + TimeUnit.MILLISECONDS.toNanos(retryMillis));
        int count = call.takenCount();
        for (int i = 0; i < count; i++) {
            if (!call.isLost(i) && !call.sharesHold(i) && now - call.extensionDueAt(i) >= 0) {
                renewOne(call, redisson, i, call.owedMillis(i, now), retryMillis);
            }
        }
    }

    private static void renewOne(LockedCall call, RedissonClient redisson, int index, long lease, long retryMillis) {
        if (!call.beginRenewal()) {
            return;
        }
        RLock lock = call.locks[index];
        long sent = System.nanoTime();
        CompletionStage<Boolean> renewal;
        try {
            renewal = call.facts.kind().renew(redisson, lock, call.ownerOf(index), lease);
        } catch (Throwable e) {
            // counted as in flight above: a release waits for its answer, so it must get one
            renewal = CompletableFuture.failedFuture(e);
        }
        renewal.whenComplete((stillHeld, failure) -> {
            Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
            try {
                answered(call, lock, index, sent, lease, retryMillis, stillHeld, cause);
            } finally {
                // only now: a release waiting for the answer must find a loss it tells of recorded already
                call.renewalAnswered(cause);
            }
        });
    }

    /**
     * What a renewal's answer means. The renewal was sent while the call ran, and a release waits for its answer
     * before it unlocks or hands anything on, so "not held" is always a loss, also when the release has begun since:
     * the key was gone before the release could reach Redis (and must not be handed on). Only a call left to lapse
     * meanwhile ignores it: its lease is meant to run out.
     */
    private static void answered(
            LockedCall call,
            RLock lock,
            int index,
            long sent,
            long lease,
            long retryMillis,
            Boolean stillHeld,
            Throwable cause) {
        if (call.isLapsing() && !Boolean.TRUE.equals(stillHeld)) {
            return;
        }
        boolean released = call.isReleased();
        LockEvents.Meter meter = call.facts.meter();
        if (meter != null && !released) {
            if (cause != null) {
                meter.renewalFailed();
            } else if (stillHeld) {
                meter.renewed();
            }
        }
        if (cause != null) {
            if (!released && call.firstRenewalFailure()) {
                LockLosses.renewalFailed(call, lock.getName(), cause, retryMillis);
            }
        } else if (stillHeld) {
            call.confirmed(index, sent, lease);
        } else {
            LockLosses.lostWhileHeld(call, index, LockLost.Detection.RENEWAL, null);
        }
    }

    /**
     * For a call left to lapse: passes on the turns of the locks whose deadline passed by {@code now}. Returns when
     * the next one's deadline comes, or {@code Long.MAX_VALUE} when none is left.
     */
    static long lapsedBy(LockedCall call, long now) {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < call.takenCount(); i++) {
            long deadline = call.sharesHold(i) ? 0 : call.deadline(i);
            if (deadline == 0 || call.isLost(i) || now - deadline >= 0) {
                call.turns.passTurn(i);
            } else if (deadline - next < 0) {
                next = deadline;
            }
        }
        return next;
    }
}
