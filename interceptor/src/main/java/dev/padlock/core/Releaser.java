package dev.padlock.core;

import dev.padlock.LockLost;
import dev.padlock.core.redis.Acquisition;
import java.util.concurrent.CompletableFuture;

/**
 * Ends calls: releases their locks (waiting, or not), or leaves them to lapse; either way passes on their local
 * turns and reports the locks found lost on the way. One per engine: it needs nothing of the method.
 */
final class Releaser {

    private final LeaseRenewal renewal;

    Releaser(LeaseRenewal renewal) {
        this.renewal = renewal;
    }

    /**
     * Releases the locks the call took, last taken first, and reports any found lost, on the calling thread:
     * observers have seen the {@link LockLost} event when this returns.
     */
    void releaseAll(LockedCall call) {
        CompletableFuture<Void> renewals = call.beginRelease();
        if (renewals == null) {
            return;
        }
        call.holdEnded();
        renewal.stop(call);
        Acquisition.awaitUninterruptibly(renewals);
        int count = call.takenCount();
        passTurns(call, count);
        for (int i = count - 1; i >= 0; i--) {
            if (call.sharesHold(i)) {
                continue; // the enclosing call's to release
            }
            if (call.handOn(i)) {
                continue; // the next local caller holds it now, still held in Redis
            }
            Throwable failure = Acquisition.release(call.locks[i], call.ownerOf(i));
            call.passTurn(i);
            if (failure != null) {
                LockLost loss = LockLosses.releaseFailed(call, i, failure);
                if (loss != null) {
                    call.facts.reporter().reportNow(loss);
                }
            }
        }
    }

    /**
     * Releases without waiting; completes when every release has been answered and any loss reported (on
     * Padlock's event thread, never on Redisson's I/O threads).
     */
    CompletableFuture<Void> releaseAllLater(LockedCall call) {
        CompletableFuture<Void> renewals = call.beginRelease();
        if (renewals == null) {
            return CompletableFuture.completedFuture(null);
        }
        call.holdEnded();
        renewal.stop(call);
        return renewals.isDone() ? unlockAll(call) : renewals.thenCompose(answered -> unlockAll(call));
    }

    private static CompletableFuture<Void> unlockAll(LockedCall call) {
        int count = call.takenCount();
        passTurns(call, count);
        CompletableFuture<?>[] releases = new CompletableFuture<?>[count];
        for (int i = count - 1; i >= 0; i--) {
            int index = i;
            if (call.sharesHold(i)) {
                releases[i] = CompletableFuture.completedFuture(null); // the enclosing call's to release
                continue;
            }
            if (call.handOn(i)) {
                releases[i] = CompletableFuture.completedFuture(null); // the next local caller holds it now
                continue;
            }
            releases[i] = Acquisition.unlock(call.locks[i], call.ownerOf(i))
                    .handle((ignored, failure) -> {
                        call.passTurn(index);
                        return failure == null ? null : LockLosses.releaseFailed(call, index, failure);
                    })
                    .thenCompose(loss -> loss == null
                            ? CompletableFuture.completedFuture(null)
                            : call.facts.reporter().reportLater(loss));
        }
        return CompletableFuture.allOf(releases);
    }

    /** Passes on the turns the call holds for locks it did not take (from {@code count} on): nothing to release. */
    private static void passTurns(LockedCall call, int count) {
        for (int i = count; i < call.locks.length; i++) {
            call.passTurn(i);
        }
    }

    /**
     * The call is over, but its work may go on and its end cannot be observed any more (a cancelled future reports
     * done while the task that would complete it still runs; a cancelled subscription hears nothing more). Releasing
     * would let another caller in beside that work, so the locks are not released: they are not renewed any more and
     * lapse with their lease (in watchdog mode, within the watchdog timeout). Releasing later is a no-op.
     */
    void letLapse(LockedCall call) {
        // The lease renewal keeps watching the call: at each lock's deadline, its turn goes on (lapsedBy).
        if (call.beginLapse()) {
            call.holdEnded();
            passTurns(call, call.takenCount()); // locks never taken, if any: nothing to wait for
        }
    }

    /**
     * For a call {@link #letLapse left to lapse}: passes on the turns of the locks whose deadline passed by {@code
     * now}. Returns when the next one's deadline comes, or {@code Long.MAX_VALUE} when none is left.
     */
    static long lapsedBy(LockedCall call, long now) {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < call.takenCount(); i++) {
            long deadline = call.sharesHold(i) ? 0 : call.deadline(i);
            if (deadline == 0 || call.isLost(i) || now - deadline >= 0) {
                call.passTurn(i);
            } else if (deadline - next < 0) {
                next = deadline;
            }
        }
        return next;
    }
}
