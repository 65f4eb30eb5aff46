package dev.padlock.core.operation;

import dev.padlock.core.call.LeaseBook;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.redis.Acquisition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;

/**
 * One acquisition's request to Redis for one lock: the lock script (with a fencing token for {@code FENCED}), and,
 * when Redis granted the lock only after a wait, the owner-checked extension that times the lease from then. It
 * answers its {@link Taking} through {@link Answers}, on whichever thread Redis answered, and never leaves a lock
 * granted without saying so: no answer is "in doubt", not "not taken".
 */
final class RedisAttempt {

    /** How an acquisition hears what Redis said of one lock; each is called once per request, at most. */
    interface Answers {

        /** Lock {@code index} is the call's, confirmed by a command sent at {@code sent} ({@link System#nanoTime}). */
        void taken(int index, long sent);

        /** Lock {@code index} was not free within the wait. */
        void notFree(int index);

        /** Lock {@code index} may have been granted, or was and was not confirmed: {@code failure} says why. */
        void inDoubt(int index, Throwable failure, LockEvents.Outcome outcome);

        /** A failure of Padlock's own, or the client shut down under the call. */
        void failed(Throwable failure);
    }

    private RedisAttempt() {}

    /**
     * Asks Redis for lock {@code index} of {@code call} within {@code wait} ms under {@code lease} ms: the key expires
     * after the lease plus the lock's lock-delay, its deadline is timed from the lease.
     */
    static void ask(AcquisitionRules rules, LockedCall call, int index, long wait, long lease, Answers answers) {
        RLock lock = call.locks[index];
        CompletableFuture<Boolean> attempt;
        long sent = rules.ticker().getAsLong();
        long expiry = call.facts.expiryMillis(lease);
        try {
            attempt = rules.fenced()
                    ? rules.commands().tryFenced(lock, wait, expiry, call.owner).thenApply(token -> {
                        if (token != null) {
                            call.recordToken(index, token);
                        }
                        return token != null;
                    })
                    : rules.commands().tryLock(lock, wait, expiry, call.owner);
        } catch (Throwable e) {
            // e.g. the client shut down under the call (an Error too): nothing may stay held or registered for renewal
            answers.failed(e);
            return;
        }
        attempt.whenComplete((taken, failure) -> {
            try {
                if (failure != null) {
                    // No answer is not "not taken": the script may have run (a timeout while the server was slow or
                    // paused).
                    Throwable cause = Acquisition.unwrap(failure);
                    answers.inDoubt(
                            index,
                            rules.notAcquired(lock.getName(), Acquisition.whyNotAsked(cause), cause),
                            LockEvents.Outcome.ERROR);
                } else if (!Boolean.TRUE.equals(taken)) {
                    answers.notFree(index);
                } else if (rules.ticker().getAsLong() - sent > waitedLongerThan(lease)) {
                    confirmAfterWait(rules, call, index, lease, answers);
                } else {
                    answers.taken(index, sent);
                }
            } catch (Throwable t) {
                answers.failed(t);
            }
        });
    }

    /**
     * How long an acquisition may take before its lease can no longer be timed from when it was sent: Redisson's
     * {@code tryLock(wait, ...)} runs the lock script again each time the key is released, so the script that
     * succeeded may have run long after the first was sent. Up to the drift margin, the deadline is then early by
     * less than the margin it already keeps; beyond, the hold is confirmed before the method runs.
     */
    private static long waitedLongerThan(long leaseMillis) {
        return LeaseBook.driftMarginNanos(TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    /**
     * Lock {@code index} was granted after a wait in Redis: extends its lease to the full lease, owner-checked, and
     * times the deadline from that, so that a caller that waited longer than its lease is not told at once that it
     * lost a lock it holds. One round trip, only for calls that waited in Redis.
     */
    private static void confirmAfterWait(
            AcquisitionRules rules, LockedCall call, int index, long lease, Answers answers) {
        RLock lock = call.locks[index];
        long sent = rules.ticker().getAsLong();
        CompletableFuture<Boolean> confirmation;
        try {
            confirmation = rules.kind()
                    .renew(rules.client().getNow(), lock, call.owner, call.facts.expiryMillis(lease))
                    .toCompletableFuture();
        } catch (Throwable e) {
            // an Error too: the lock is granted, so it goes the way of an unconfirmed one (released below)
            confirmation = CompletableFuture.failedFuture(e);
        }
        confirmation.whenComplete((held, failure) -> {
            try {
                if (failure == null && Boolean.TRUE.equals(held)) {
                    answers.taken(index, sent);
                    return;
                }
                // Granted, then not confirmed: released (owner-checked) like a lock in doubt, and the call fails.
                String reason = failure != null
                        ? "Redis could not be asked to confirm the lock it had granted after the wait (check that"
                                + " Redis is reachable from here)"
                        : "the lock Redis granted after the wait had expired before Padlock could confirm it (a lease"
                                + " shorter than Redis took to answer: use a longer lease-time, or none)";
                answers.inDoubt(
                        index,
                        rules.notAcquired(lock.getName(), reason, failure == null ? null : Acquisition.unwrap(failure)),
                        failure != null ? LockEvents.Outcome.ERROR : LockEvents.Outcome.NOT_ACQUIRED);
            } catch (Throwable t) {
                answers.failed(t);
            }
        });
    }
}
