package dev.padlock.core;

import dev.padlock.LockLost;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Keeps the watchdog-mode locks of Padlock's calls alive while their methods run, in place of Redisson's watchdog.
 *
 * <p>Why not Redisson's: in 4.7.0 its renewal task is a timer chain that a flag stops when no lock is left and
 * that the next lock restarts, without cancelling the pending timer. Each lock taken while none was held thus adds
 * a chain, and every chain renews every held lock: after ~16.7k short calls, one held lock was renewed ~16.7k
 * times per period instead of once (reproduced by {@code RenewalStormTest}). So Padlock takes watchdog-mode locks
 * with a fixed lease of the watchdog timeout, which keeps Redisson's watchdog out of it entirely, and renews them
 * here, owner-checked (see {@link RenewalScripts}).
 *
 * <p>One tick chain per instance, never more: only the tick itself ends its chain, and only when nothing is held;
 * a lock taken at that moment restarts it (see {@link #tick}). Every third of the watchdog timeout, each lock held
 * since the previous tick is renewed once; younger ones are not, so a call shorter than a tick costs no renewal at
 * all (Redisson's watchdog renews whatever happens to be held at its tick). A lock is at least a third of the
 * timeout away from expiry when renewed, as with Redisson.
 *
 * <p>Per call this is one small object and a concurrent-set insert and removal, and no Redis command. If the
 * process dies, nothing renews and the locks lapse within the watchdog timeout, as with Redisson.
 */
final class LeaseRenewal {

    private static final System.Logger LOG = System.getLogger(LeaseRenewal.class.getName());

    private final Supplier<RedissonClient> client;
    private final Set<HeldLocks> held = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean ticking = new AtomicBoolean();
    /** The client's watchdog timeout, read on first use: the client is built after deployment. 0 until then. */
    private volatile long leaseMillis;

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
     * Renews those locks of {@code call} that it has taken ({@link HeldLocks#taken}) until {@link #stop}.
     * Registered before the first is taken, so that none waits unrenewed while a later one is awaited.
     */
    void renewWhileHeld(HeldLocks call) {
        held.add(call);
        if (!ticking.get() && ticking.compareAndSet(false, true)) {
            scheduleTick();
        }
    }

    /** Stops renewing the call's locks; they are about to be released. */
    void stop(HeldLocks call) {
        held.remove(call);
    }

    private void scheduleTick() {
        Ticks.EXECUTOR.schedule(this::tick, Math.max(1, leaseMillis() / 3), TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            renewDue();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Padlock could not renew lock leases; it tries again next tick", e);
        } finally {
            if (!held.isEmpty()) {
                scheduleTick();
            } else {
                ticking.set(false);
                // A lock taken after the check above saw the chain still running and did not start one: start it.
                if (!held.isEmpty() && ticking.compareAndSet(false, true)) {
                    scheduleTick();
                }
            }
        }
    }

    private void renewDue() {
        RedissonClient redisson;
        try {
            redisson = client.get();
        } catch (RuntimeException e) {
            // The client was shut down with its container: nothing can renew these locks any more.
            held.clear();
            return;
        }
        if (redisson.isShutdown() || redisson.isShuttingDown()) {
            held.clear();
            return;
        }
        long lease = leaseMillis();
        for (HeldLocks call : held) {
            if (call.seenByTick) {
                renew(call, redisson, lease);
            } else {
                // Taken since the previous tick: its lease is still at least two thirds fresh.
                call.seenByTick = true;
            }
        }
    }

    private static void renew(HeldLocks call, RedissonClient redisson, long lease) {
        LockOperation operation = call.operation;
        int count = call.taken();
        for (int i = 0; i < count; i++) {
            if (call.isLost(i)) {
                continue;
            }
            int index = i;
            RLock lock = call.locks[i];
            operation.strategy.renew(redisson, lock, call.owner, lease).whenComplete((stillHeld, failure) -> {
                if (call.stopped) {
                    // Released meanwhile: a "not held" answer is about the release, not a loss.
                    return;
                }
                LockLost loss = null;
                if (failure != null) {
                    if (call.firstFailure()) {
                        operation.renewalFailed(lock, Acquisition.unwrap(failure), lease);
                    }
                    if (call.unconfirmedMillis(index) > lease) {
                        // No renewal got through for a whole lease: whatever Redis does now, the lock has lapsed.
                        loss = operation.lost(call, index, LockLost.Detection.UNCONFIRMED, Acquisition.unwrap(failure));
                    }
                } else if (stillHeld) {
                    call.confirmed(index);
                } else {
                    loss = operation.lost(call, index, LockLost.Detection.RENEWAL, null);
                }
                if (loss != null) {
                    operation.losses.reportLater(loss);
                }
            });
        }
    }
}
