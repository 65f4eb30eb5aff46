package dev.padlock.core.lease;

import dev.padlock.core.PadlockThreads;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.server.ServerWatch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;

/**
 * Keeps the leases of Padlock's calls: renews watchdog-mode locks while their methods run, extends the leases owed to
 * locks handed on, and watches every held lock's deadline, so that a holder hears of its loss before Redis can grant
 * the key to anyone else. It renews in place of Redisson's watchdog, which in 4.7.0 piles up a renewal chain for each
 * lock taken while none was held ({@code RenewalStormTest}): a watchdog-mode lock is taken with a fixed lease of the
 * watchdog timeout and renewed here, owner-checked ({@link LockKind#renew}). One timer chain per engine wakes at the
 * earliest need of any watched call, never spins, and ends when nothing is held; what a wake does to one call is
 * {@link CallRenewer}'s. A call costs a concurrent-set insert and removal, and no Redis command unless it outlives a
 * third of its lease. Why the deadlines are safe, and the steps of a wake: {@code docs/internals/call-flow.md}.
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

    /** The engine's clock ({@code EngineOptions.ticker}), which every deadline of its calls is read on. */
    private final LongSupplier ticker;

    /** Which master restarted or had its clock jump: what that does to the locks held there is {@link ServerLosses}'. */
    private final ServerWatch servers;
    /** Whether {@link #servers} watches the client: from the first lock held, once the client is surely there. */
    private volatile boolean serversWatched;

    public LeaseRenewal(Supplier<RedissonClient> client, boolean reportsAtDeadline, LongSupplier ticker) {
        this.client = client;
        this.reportsAtDeadline = reportsAtDeadline;
        this.ticker = ticker;
        this.servers = new ServerWatch(new ServerLosses(
                held, ticker, call -> CallRenewer.nextAttention(call, watchdogLeaseOf(call)), this::wakeBy));
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
        if (!serversWatched) {
            watchServers();
        }
        wakeBy(CallRenewer.nextAttention(call, watchdogLeaseOf(call)));
    }

    private void watchServers() {
        RedissonClient redisson = usableClient();
        if (redisson != null) {
            serversWatched = true;
            servers.watch(redisson);
        }
    }

    /** Stops watching and renewing the call's locks; they are about to be released. */
    public void stop(LockedCall call) {
        held.remove(call);
    }

    /** The locks of the calls watched now, by key: a live view's picture. */
    public List<LiveLocks.Held> held() {
        List<LiveLocks.Held> locks = new ArrayList<>();
        long now = ticker.getAsLong();
        held.forEach(call -> describe(call, now, locks));
        locks.sort(Comparator.comparing(LiveLocks.Held::key));
        return locks;
    }

    /** Adds the locks {@code call} holds itself to a live view's picture (a shared hold is its enclosing call's). */
    private static void describe(LockedCall call, long now, List<LiveLocks.Held> into) {
        int count = call.takenCount(); // read first: markTaken writes acquiredNanos before it
        long heldMillis = TimeUnit.NANOSECONDS.toMillis(now - call.acquiredNanos());
        String activity = call.activity();
        for (int i = 0; i < count; i++) {
            if (call.sharesHold(i)) {
                continue;
            }
            long deadline = call.deadline(i);
            into.add(new LiveLocks.Held(
                    call.locks[i].getName(),
                    call.facts.lockName(),
                    call.facts.method(),
                    call.facts.type(),
                    heldMillis,
                    deadline == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(deadline - now),
                    !call.facts.hasFixedLease(),
                    call.isLost(i) ? "lost" : activity));
        }
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
        servers.close();
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
            wake = Ticks.EXECUTOR.schedule(this::tick, Math.max(0, at - ticker.getAsLong()), TimeUnit.NANOSECONDS);
        }
    }

    private void tick() {
        synchronized (wakes) {
            wake = null;
        }
        long next = Long.MAX_VALUE;
        try {
            next = attend(ticker.getAsLong());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Padlock could not renew lock leases; it tries again shortly", e);
            next = ticker.getAsLong() + TimeUnit.MILLISECONDS.toNanos(CallRenewer.retryMillis(leaseMillis));
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
                long lapse = CallRenewer.lapsedBy(call, now);
                if (lapse == Long.MAX_VALUE) {
                    held.remove(call);
                } else if (lapse - next < 0) {
                    next = lapse;
                }
                continue;
            }
            reportOverdue(call, now);
            long lease = watchdogLeaseOf(call);
            if (CallRenewer.isDue(call, lease, now)) {
                if (redisson == null) {
                    redisson = usableClient();
                    if (redisson == null) {
                        // The client was shut down with its container: nothing can renew these locks any more.
                        held.clear();
                        return Long.MAX_VALUE;
                    }
                }
                CallRenewer.renewOrExtend(call, redisson, lease, now, servers);
            }
            // at least a millisecond ahead: a lock whose deadline passed unreported must not make the chain spin
            long attention = Math.max(CallRenewer.nextAttention(call, lease) - now, 1_000_000) + now;
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

    /** The watchdog lease, read only for a watchdog-mode call: a fixed-lease call never needs the client's. */
    private long watchdogLeaseOf(LockedCall call) {
        return call.facts.hasFixedLease() ? 0 : leaseMillis();
    }
}
