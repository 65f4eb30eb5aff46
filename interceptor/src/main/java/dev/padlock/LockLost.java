package dev.padlock;

import java.time.Duration;

/**
 * A CDI event: the lock of a running {@link Locked} call was lost, or could no longer be confirmed, so
 * another caller may have run the same critical section at the same time. Observe it to alert, to compensate,
 * or to count:
 *
 * <pre>{@code
 * void onLost(@Observes LockLost lost) {
 *     alerts.raise("lock " + lost.lockKey() + " lost after " + lost.heldFor() + " in " + lost.method());
 * }
 * }</pre>
 *
 * <p>Fired once per lock and call. When found by a renewal or at the holder's deadline it is fired on a Padlock
 * thread while the method still runs; when found at release, before the call returns to its caller (for a {@code CompletionStage},
 * before the returned stage completes). Observers should be quick: for a renewal, a slow observer delays only
 * other events, never renewals.
 *
 * @param lockKey the Redis key of the lock, e.g. {@code padlock:stock:A-42}
 * @param method the intercepted method, as {@code com.acme.Inventory#reserve(String, int)}
 * @param heldFor how long after acquisition the loss was found
 * @param detectedBy how Padlock found out
 * @param cause the Redis error behind an {@link Detection#UNCONFIRMED} loss; {@code null} otherwise
 */
public record LockLost(String lockKey, String method, Duration heldFor, Detection detectedBy, Throwable cause) {

    /** One sentence for a log line or an exception: what was lost, when, why, and what to do. */
    public String describe() {
        String head = "Lock " + lockKey + " for " + method;
        String after = Durations.format(heldFor);
        return switch (detectedBy) {
            case RENEWAL ->
                head + " was lost " + after + " after it was taken, while the method ran: a lease renewal found"
                        + " it expired or taken over (Redis restarted, flushed or failed over, or this JVM paused"
                        + " longer than the lease), so another caller may run at the same time. Protect the data with a"
                        + " FENCED lock's token; if this JVM pauses, raise padlock.watchdog-timeout.";
            case RELEASE ->
                head + " was no longer held when the method finished, " + after + " after it was taken: its"
                        + " lease ran out or Redis lost it, so another caller may have run at the same time. Use a"
                        + " longer lease-time, or none so Padlock renews the lock while the method runs.";
            case DEADLINE ->
                head + " outlived its lease " + after + " after it was taken, while the method ran: no"
                        + " acquisition or renewal confirmed by Redis covers it any more (a fixed lease-time shorter than"
                        + " the method, or renewals that did not get through: Redis slow or unreachable, or this JVM"
                        + " paused), so another caller may run at the same time. Use a longer lease-time, or none so"
                        + " Padlock renews the lock; call LockContext.checkHeld() before irreversible steps.";
            case HAND_OFF ->
                head + " was handed on to this call by the previous holder in this application, but Redis no longer"
                        + " held it when asked as this call started, " + after + " after it took the key over: it was"
                        + " lost (Redis restarted, flushed or failed over, or the lease ran out) while the previous"
                        + " holder ran, so another caller may run at the same time. Protect the data with a FENCED"
                        + " lock's token; call LockContext.checkHeld() before irreversible steps.";
            case RESTART ->
                head + " was lost " + after + " after it was taken, while the method ran: the Redis server that held"
                        + " it restarted (it came back as a new process), and a server restarted without persistence"
                        + " has forgotten every lock, so another caller may run at the same time. Give Redis persistence"
                        + " (appendonly yes) or replicas; protect the data with a FENCED lock's token.";
            case CLOCK_JUMP ->
                head + " was lost " + after + " after it was taken, while the method ran: the Redis server's clock"
                        + " jumped forward (its TIME moved further than this JVM's clock between two renewals), and"
                        + " Redis expires keys by its own clock, so the lease ended early and another caller may run"
                        + " at the same time. Keep the server's clock from being stepped (slew it, e.g. chrony"
                        + " makestep off); protect the data with a FENCED lock's token.";
            case UNCONFIRMED ->
                head + " could not be confirmed held " + after + " after it was taken: Redis could not be"
                        + " reached to renew or release it (" + cause + "), so another caller may have run at the"
                        + " same time. Redis frees it when its lease runs out; check that Redis is reachable from here.";
        };
    }

    /** How a lock loss was found. */
    public enum Detection {
        /** A lease renewal found the lock expired or taken by another owner while the method ran. */
        RENEWAL,
        /** The release found the lock no longer held by this call: its lease had run out. */
        RELEASE,
        /**
         * The holder's own deadline passed while the method ran: the send time of the last acquisition or renewal
         * that Redis confirmed, plus the lease, minus a margin for clock drift. Reported at that moment, on a Padlock
         * thread, before Redis can grant the key to anyone else; a confirmation arriving later does not undo it.
         */
        DEADLINE,
        /**
         * Redis could not be reached to renew the lock within its lease, or to release it: Padlock cannot confirm
         * the lock was held throughout (a Redis that restarted without persistence has forgotten it).
         */
        UNCONFIRMED,
        /**
         * The lock was handed to this call by the call of this application that held it before (local hand-off, see
         * {@code padlock.hand-off-limit}), and Redis, asked as this call started, no longer held it: it was lost while
         * the previous holder ran. That holder is told too (with {@link #RELEASE}), before it returns.
         */
        HAND_OFF,
        /**
         * The Redis server that held the lock came back as a new process (its {@code run_id} changed) while the method
         * ran: reported as soon as Padlock reaches it again, not at the next renewal. A server restarted without
         * persistence has forgotten every lock; one with persistence may have lost the last second of writes, so a
         * restart is a loss either way.
         */
        RESTART,
        /**
         * The Redis server's wall clock jumped forward while the method ran: a renewal's answer carried the server's
         * {@code TIME}, further ahead of this JVM's monotonic clock than at the previous renewal by more than clocks
         * drift. Redis expires keys by its wall clock, so the lease ended that much early: the lock was found gone, or
         * its deadline, moved earlier by the jump, had passed.
         */
        CLOCK_JUMP
    }
}
