package dev.padlock.core.events;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import java.time.Instant;
import java.util.List;

/**
 * A moment's picture of one application's locks, for a live view such as the Quarkus Dev UI: the locks its calls
 * hold, the keys its callers queue for, and its most recent losses. Taken on demand by {@code
 * PadlockEngine.liveLocks()}; locked calls pay nothing for it.
 *
 * <p>It names rendered keys, which may carry user data: it is meant for a developer's own application in dev mode,
 * never for metrics or logs (see docs/reference/observability.md).
 *
 * @param held the locks held now, by key
 * @param queues the keys with callers of this application waiting in its local queue, by key
 * @param recentLosses the last {@value LockLossReporter#RECENT} losses, newest first
 */
public record LiveLocks(List<Held> held, List<Queue> queues, List<Loss> recentLosses) {

    /**
     * A lock a running call holds.
     *
     * @param key the Redis key
     * @param lockName the lock name, as {@code padlock.locks."<name>"} configures it
     * @param method the method holding it, as {@code com.acme.Inventory#reserve(String, int)}
     * @param heldMillis for how long the call has held its locks
     * @param leaseLeftMillis time left until the holder's own deadline (last confirmed acquisition or renewal + lease
     *     − drift margin); negative once it passed
     * @param renewed whether Padlock renews the lease while the method runs (watchdog mode), else a fixed lease
     * @param state {@code running}, {@code releasing}, {@code lapsing} (left to its lease after a cancellation) or
     *     {@code lost}
     */
    public record Held(
            String key,
            String lockName,
            String method,
            LockType type,
            long heldMillis,
            long leaseLeftMillis,
            boolean renewed,
            String state) {}

    /**
     * A key this application's callers wait for, in its local queue, while another of its calls holds it.
     *
     * @param waiting how many callers wait
     */
    public record Queue(String key, int waiting) {}

    /**
     * A loss reported as a {@link LockLost} event.
     *
     * @param at when it was reported
     * @param cause the type of the Redis error behind an {@link LockLost.Detection#UNCONFIRMED} loss; else {@code null}
     */
    public record Loss(
            Instant at, String key, String method, LockLost.Detection detectedBy, long heldMillis, String cause) {

        static Loss of(LockLost loss) {
            return new Loss(
                    Instant.now(),
                    loss.lockKey(),
                    loss.method(),
                    loss.detectedBy(),
                    loss.heldFor().toMillis(),
                    loss.cause() == null ? null : loss.cause().getClass().getName());
        }
    }
}
