package dev.padlock.core.lease;

import dev.padlock.LockLost;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LeaseBook;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.RenewalAnswer;
import dev.padlock.core.server.ServerWatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * What {@link LeaseRenewal} does to one watched call's locks when its chain wakes: decide whether they are due a
 * renewal (watchdog mode) or an extension of a lease owed to a handed-on lock (fixed lease), send it owner-checked,
 * and book Redis's answer; for a call left to lapse, pass each lock's turn on when its lease ends instead. It keeps
 * nothing: the call records what is learnt ({@link LeaseBook}), the chain keeps the timer. The sums behind each
 * decision take the clock as an argument, so that they can be checked without Redis or sleeping.
 */
final class CallRenewer {

    private CallRenewer() {}

    /**
     * A third of the watchdog lease: a renewal is due once that much has passed since the last confirmation, so that a
     * call shorter than that costs none, and the lock still has two thirds of its lease left when it is sent.
     */
    static long periodNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(3, leaseMillis)) / 3;
    }

    /** When a renewal is due: a period after the last confirmation, two periods before the earliest deadline. */
    static long renewalDueAt(long earliestDeadline, long periodNanos) {
        return earliestDeadline == Long.MAX_VALUE ? Long.MAX_VALUE : earliestDeadline - 2 * periodNanos;
    }

    /**
     * How long a renewal or extension sent is awaited before it is sent again, also after a failure: a tenth of the
     * lease (at least 1 ms), so that several tries fit before the deadline.
     */
    static long retryMillis(long leaseMillis) {
        return Math.max(1, leaseMillis / 10);
    }

    /**
     * Whether something due at {@code dueAt} ({@link System#nanoTime}; {@code Long.MAX_VALUE}: never) is sent at {@code
     * now}: not while one is awaited.
     */
    static boolean isDue(long now, long dueAt, boolean retryPending) {
        // Long.MAX_VALUE is "never": compared by difference, it would come on a clock that reads negative
        return dueAt != Long.MAX_VALUE && now - dueAt >= 0 && !retryPending;
    }

    /**
     * When a call next needs attention: its renewal or extension ({@code renewalAt}, put off to {@code retryAt} while
     * one sent is awaited; 0: none sent), or its {@code deadline} when that comes first; {@code Long.MAX_VALUE} for
     * neither.
     */
    static long attentionAt(long deadline, long renewalAt, long retryAt) {
        if (deadline == Long.MAX_VALUE || renewalAt == Long.MAX_VALUE) {
            return deadline;
        }
        long renewal = retryAt != 0 && retryAt - renewalAt > 0 ? retryAt : renewalAt;
        return renewal - deadline < 0 ? renewal : deadline;
    }

    /**
     * Whether the call's locks are due a renewal or extension at {@code now}.
     *
     * @param leaseMillis the watchdog lease; not read for a call with a fixed lease
     */
    static boolean isDue(LockedCall call, long leaseMillis, long now) {
        long dueAt = call.facts.hasFixedLease()
                ? call.earliestExtensionDue()
                : renewalDueAt(call.earliestDeadline(), periodNanos(leaseMillis));
        return isDue(now, dueAt, call.retryPending(now));
    }

    /** When the call next needs attention ({@link #attentionAt}); {@code leaseMillis} as for {@link #isDue}. */
    static long nextAttention(LockedCall call, long leaseMillis) {
        long deadline = call.earliestDeadline();
        if (deadline == Long.MAX_VALUE) {
            return deadline;
        }
        long renewal = call.facts.hasFixedLease()
                ? call.earliestExtensionDue()
                : renewalDueAt(deadline, periodNanos(leaseMillis));
        return attentionAt(deadline, renewal, call.retryAt());
    }

    /**
     * Sends what is due: a watchdog-mode call's locks are renewed with the watchdog lease; a fixed-lease call's handed
     * locks are extended to the end of the lease owed to it ({@link HandOff}). Either is sent again if not answered
     * within {@link #retryMillis}. A lock's deadline moves when Redis confirms.
     */
    static void renewOrExtend(
            LockedCall call, RedissonClient redisson, long leaseMillis, long now, ServerWatch servers) {
        boolean fixed = call.facts.hasFixedLease();
        long retryMillis = retryMillis(fixed ? call.owedLeaseMillis() : leaseMillis);
        call.retryAfter(now + TimeUnit.MILLISECONDS.toNanos(retryMillis));
        int count = call.takenCount();
        for (int i = 0; i < count; i++) {
            if (call.isLost(i) || call.sharesHold(i)) {
                continue;
            }
            if (!fixed) {
                renewOne(call, redisson, i, leaseMillis, retryMillis, servers);
            } else if (isDue(now, call.extensionDueAt(i), false)) {
                renewOne(call, redisson, i, call.owedMillis(i, now), retryMillis, servers);
            }
        }
    }

    private static void renewOne(
            LockedCall call, RedissonClient redisson, int index, long lease, long retryMillis, ServerWatch servers) {
        if (!call.beginRenewal()) {
            return;
        }
        RLock lock = call.locks[index];
        long sent = call.facts.ticker().getAsLong();
        CompletionStage<RenewalAnswer> renewal;
        try {
            renewal = call.facts
                    .kind()
                    .renewReadingTime(redisson, lock, call.ownerOf(index), call.facts.expiryMillis(lease));
        } catch (Throwable e) {
            // counted as in flight above: a release waits for its answer, so it must get one
            renewal = CompletableFuture.failedFuture(e);
        }
        renewal.whenComplete((answer, failure) -> {
            Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
            try {
                long jumped = answer == null
                        ? 0
                        : servers.clockRead(
                                lock.getName(), sent, call.facts.ticker().getAsLong(), answer.serverMillis());
                answered(
                        call,
                        lock,
                        index,
                        sent,
                        lease,
                        retryMillis,
                        answer == null ? null : answer.held(),
                        jumped,
                        cause);
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
            long clockJumped,
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
            // gone after the server's clock jumped: the jump ended its lease early, which says more than "not held"
            LockLost.Detection how = clockJumped > 0 ? LockLost.Detection.CLOCK_JUMP : LockLost.Detection.RENEWAL;
            LockLosses.lostWhileHeld(call, index, how, null);
        }
    }

    /**
     * For a call left to lapse: passes on the turns of the locks whose deadline passed by {@code now}, as their leases
     * are over and nothing renews them. Returns when the next one's deadline comes, or {@code Long.MAX_VALUE} when
     * none is left.
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
