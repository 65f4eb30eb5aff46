package dev.padlock.core.operation;

import dev.padlock.LockLost;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LeaseBook;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.lease.LeaseRenewal;
import dev.padlock.core.lease.LockLosses;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockCommands;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.redisson.api.RedissonClient;

/**
 * Ends calls: releases their locks (unlocks them in Redis, or hands them to the next caller of the application,
 * through {@link HandingOn}), or leaves them to lapse; either way passes on their local turns and reports the locks
 * found lost on the way, within {@link #RELEASE_TIMEOUT_NANOS}. One per engine: it needs nothing of the method.
 */
public final class Releaser {

    static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /**
     * How long a release waits for Redis: a healthy server answers in milliseconds, and Redisson gives up on an
     * unanswered command after 3 s; during a failover it retries for many seconds more. A call's release returns after
     * this at the latest, reporting the locks whose release Redis did not confirm ({@link
     * LockLost.Detection#UNCONFIRMED}); their unlocks go on without the caller, and a lock whose unlock never lands
     * lapses with its lease.
     */
    static final long RELEASE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final LeaseRenewal renewal;
    private final RedisClientSource client;
    /** Releases begun and not yet answered or reported, for {@link #awaitReleases}. */
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Hands keys on to this application's next callers, or unlocks them and has those give way. */
    private final HandingOn handingOn;

    /** @param givesWay see {@link HandingOn}; always, but in a test's control ({@code EngineOptions}) */
    private final LockCommands commands;
    /** The engine's clock, which release timeouts are read on. */
    private final LongSupplier ticker;

    public Releaser(
            LeaseRenewal renewal,
            RedisClientSource client,
            boolean givesWay,
            LockCommands commands,
            LongSupplier ticker) {
        this.renewal = renewal;
        this.client = client;
        this.commands = commands;
        this.ticker = ticker;
        this.handingOn = new HandingOn(client, givesWay, commands, ticker);
    }

    /**
     * Releases the locks the call took and reports any found lost, waiting on the calling thread: observers have seen
     * the {@link LockLost} event when this returns. While another call still shares one of its holds, the release is
     * left to the last of them to end ({@link LeaseBook#beginRelease}), and this returns at once.
     */
    void releaseAll(LockedCall call) {
        inFlight.incrementAndGet(); // before the release begins: awaitReleases sees it from then on
        try {
            CompletableFuture<Void> renewals = call.beginRelease();
            if (renewals != null && !LeaseBook.waitsForSharers(renewals)) {
                release(call, renewals);
                call.releaseEnded();
            }
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void release(LockedCall call, CompletableFuture<Void> renewals) {
        long end = ticker.getAsLong() + RELEASE_TIMEOUT_NANOS;
        call.holdEnded();
        releaseHostsDue(call.stopSharing());
        renewal.stop(call);
        Acquisition.awaitUninterruptibly(renewals, end, ticker);
        if (call.takenCount() == 1
                && !call.sharesHold(0)
                && !call.turns.hasLocalWaiters(0)
                && call.facts.holdAtLeastMillis() == 0) {
            // the common case, one uncontended lock: unlocked on this thread, with nothing to hand on or ask
            Throwable failure =
                    Acquisition.awaitUninterruptibly(commands.unlock(call.locks[0], call.ownerOf(0)), end, ticker);
            call.turns.passTurn(0);
            LockLost loss = failure == null ? null : LockLosses.releaseFailed(call, 0, unanswered(failure));
            if (loss != null) {
                call.facts.reporter().reportNow(loss);
            }
            return;
        }
        CompletableFuture<?>[] releases = releaseEach(call);
        CompletableFuture<?> all = releases.length == 1 ? releases[0] : CompletableFuture.allOf(releases);
        if (Acquisition.awaitUninterruptibly(all, end, ticker) instanceof TimeoutException) {
            reportUnanswered(call, releases, true);
        }
    }

    /**
     * The application is stopping: waits, up to {@link #RELEASE_TIMEOUT_NANOS}, for the releases under way (a call's,
     * an undo of an acquisition in doubt or given up) to be answered or reported, so that none is cut off by the
     * client's shutdown and left held for its lease. True when none is left.
     */
    public boolean awaitReleases() {
        long end = ticker.getAsLong() + RELEASE_TIMEOUT_NANOS;
        while (inFlight.get() > 0) {
            if (ticker.getAsLong() - end >= 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return true;
    }

    /**
     * Releases the calls whose release waited for a call that shared their holds and has just ended (their
     * transaction completed while it ran): without waiting, on this thread, so the caller's own release goes on.
     */
    private void releaseHostsDue(LockedCall[] hosts) {
        if (hosts == null) {
            return;
        }
        for (LockedCall host : hosts) {
            if (host != null) {
                CompletableFuture<Void> done = host.releasedAfterSharers();
                releaseAllLater(host).whenComplete((released, failure) -> done.complete(null));
            }
        }
    }

    /** A release Redis did not answer in time is unconfirmed: said with how long it was waited for. */
    private static Throwable unanswered(Throwable failure) {
        return failure instanceof TimeoutException
                ? new TimeoutException("Redis did not confirm the release within "
                        + TimeUnit.NANOSECONDS.toSeconds(RELEASE_TIMEOUT_NANOS) + " s")
                : failure;
    }

    /**
     * The releases not answered yet are unconfirmed: each such lock is reported lost now (once: its answer, when it
     * comes, finds the loss recorded). Its turn passes on with that answer.
     */
    private static void reportUnanswered(LockedCall call, CompletableFuture<?>[] releases, boolean now) {
        for (int i = 0; i < releases.length; i++) {
            if (!releases[i].isDone()) {
                LockLost loss = LockLosses.releaseFailed(call, i, unanswered(new TimeoutException()));
                if (loss != null) {
                    if (now) {
                        call.facts.reporter().reportNow(loss);
                    } else {
                        call.facts.reporter().reportLater(loss);
                    }
                }
            }
        }
    }

    /**
     * Releases without waiting; completes when every release has been answered (for a lock handed on, when Redis
     * confirmed it was held to the end of this call) and any loss reported (on Padlock's event thread, never on
     * Redisson's I/O threads), or {@link #RELEASE_TIMEOUT_NANOS} after it began, the unanswered ones reported
     * unconfirmed.
     */
    CompletableFuture<Void> releaseAllLater(LockedCall call) {
        inFlight.incrementAndGet(); // before the release begins: awaitReleases sees it from then on
        CompletableFuture<Void> released;
        try {
            CompletableFuture<Void> renewals = call.beginRelease();
            if (renewals == null) {
                inFlight.decrementAndGet();
                return DONE;
            }
            if (LeaseBook.waitsForSharers(renewals)) {
                inFlight.decrementAndGet();
                return call.releasedAfterSharers();
            }
            call.holdEnded();
            releaseHostsDue(call.stopSharing());
            renewal.stop(call);
            long end = ticker.getAsLong() + RELEASE_TIMEOUT_NANOS;
            released = renewals.isDone()
                    ? releaseEachBounded(call, end)
                    : renewals.thenCompose(answered -> releaseEachBounded(call, end));
        } catch (RuntimeException | Error e) {
            inFlight.decrementAndGet();
            throw e;
        }
        released.whenComplete((done, failure) -> {
            call.releaseEnded();
            inFlight.decrementAndGet();
        });
        return released;
    }

    /**
     * Releases each lock; completes once Redis answered for all of them, or at {@code end}: the releases not
     * answered by then are reported unconfirmed, and the caller goes on.
     */
    private CompletableFuture<Void> releaseEachBounded(LockedCall call, long end) {
        CompletableFuture<?>[] releases = releaseEach(call);
        CompletableFuture<Void> all =
                releases.length == 1 ? releases[0].thenApply(answered -> null) : CompletableFuture.allOf(releases);
        if (all.isDone()) {
            return all;
        }
        // a timer only while a release is outstanding; it is cancelled when the answers come
        return all.orTimeout(Math.max(0, end - ticker.getAsLong()), TimeUnit.NANOSECONDS)
                .exceptionally(failure -> {
                    reportUnanswered(call, releases, false);
                    return null;
                });
    }

    /** Releases each lock the call took; one future per lock, done once Redis answered for it. */
    private CompletableFuture<?>[] releaseEach(LockedCall call) {
        int count = call.takenCount();
        passTurns(call, count);
        CompletableFuture<?>[] releases = new CompletableFuture<?>[count];
        for (int i = count - 1; i >= 0; i--) {
            releases[i] = releaseOne(call, i);
        }
        return releases;
    }

    /**
     * Releases lock {@code index}: hands it on when {@link HandOff} allows and Redis confirmed it while the call held
     * it, else unlocks it. Completes once Redis answered for the call's hold.
     */
    private CompletableFuture<Void> releaseOne(LockedCall call, int index) {
        if (call.sharesHold(index)) {
            return DONE; // the enclosing call's to release
        }
        if (call.facts.holdAtLeastMillis() > 0) {
            // never handed on: the key stays with the call that took it, if its body ran (a call that took a key
            // without running, or in doubt, must not keep the occurrence from the instance that runs it)
            return call.keepsHoldAtLeast(index) ? keepOrUnlock(call, index) : handingOn.unlock(call, index);
        }
        return handingOn.handOnOrUnlock(call, index);
    }

    /**
     * Ends lock {@code index} of a call held at least for a time ({@code Locked.holdAtLeast}): while that time is not
     * up, leaves the key, still the call's, to expire when it is, rather than unlocking it, so that an instance whose
     * scheduler fires a little later finds it held; once it is up, unlocks it. The time counts from when the call held
     * its first lock, measured when Redis's answer arrived, so by Redis's clock the key never expires before the call's
     * acquisition plus that time.
     */
    private CompletableFuture<Void> keepOrUnlock(LockedCall call, int index) {
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(ticker.getAsLong() - call.acquiredNanos());
        long leftMillis = call.facts.holdAtLeastMillis() - elapsedMillis;
        RedissonClient redisson = client.getNow();
        if (leftMillis <= 0 || redisson == null) {
            return handingOn.unlock(call, index);
        }
        CompletableFuture<Boolean> kept;
        try {
            kept = call.facts
                    .kind()
                    .keep(redisson, call.locks[index], call.ownerOf(index), leftMillis)
                    .toCompletableFuture();
        } catch (Throwable e) {
            // an Error too: the turn is passed on and the loss reported after the answer, whatever it is
            kept = CompletableFuture.failedFuture(e);
        }
        return kept.handle((held, failure) -> {
                    call.turns.passTurn(index);
                    if (failure != null) {
                        return LockLosses.releaseFailed(call, index, failure);
                    }
                    return Boolean.TRUE.equals(held)
                            ? null
                            : LockLosses.releaseFailed(call, index, new IllegalMonitorStateException());
                })
                .thenCompose(loss -> HandingOn.report(call, loss));
    }

    /** Passes on the turns the call holds for locks it did not take (from {@code count} on): nothing to release. */
    private static void passTurns(LockedCall call, int count) {
        for (int i = count; i < call.locks.length; i++) {
            call.turns.passTurn(i);
        }
    }

    /** The keys the lapsing call took itself and did not lose, which now expire instead of being released. */
    private static void countLapsing(LockedCall call) {
        if (call.facts.meter() == null) {
            return;
        }
        for (int i = 0; i < call.takenCount(); i++) {
            if (!call.sharesHold(i) && !call.isLost(i)) {
                call.facts.meter().expired();
            }
        }
    }

    /**
     * The call is over, but its work may go on and its end cannot be observed any more (a cancelled future reports
     * done while the task that would complete it still runs; a cancelled subscription hears nothing more). Releasing
     * would let another caller in beside that work, so the locks are not released: they are not renewed any more and
     * lapse with their lease (in watchdog mode, within the watchdog timeout). Releasing later is a no-op.
     */
    void letLapse(LockedCall call) {
        // The lease renewal keeps watching the call: at each lock's deadline, its turn goes on (CallRenewer.lapsedBy).
        if (call.beginLapse()) {
            countLapsing(call);
            call.holdEnded();
            releaseHostsDue(call.stopSharing());
            passTurns(call, call.takenCount()); // locks never taken, if any: nothing to wait for
        }
    }
}
