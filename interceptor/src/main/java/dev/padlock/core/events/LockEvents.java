package dev.padlock.core.events;

import dev.padlock.LockLost;
import dev.padlock.LockType;

/**
 * What the engine tells an observer of its locks (metrics, traces): one {@link Meter} per {@code @Locked} method,
 * asked for once when the method's operation is built, so that a call only calls the meter it already has. Without
 * events ({@link #NONE}) a call pays one field read and a branch at each point. The engine never passes the rendered
 * key: it is unbounded (one per argument value) and may be user data.
 */
public interface LockEvents {

    /** No observer: the engine does not even read the clock for it. */
    LockEvents NONE = (lockName, type) -> null;

    /**
     * The meter for one method's calls; several methods may share a lock name, and get meters that count together.
     * Called once per method, while the engine is built (or when a method is planned late).
     *
     * @param lockName the lock name ({@code @Locked.value}, or the default {@code <declaring.Class>#<method>})
     * @param type the resolved lock type, after per-lock config
     * @return the meter, or {@code null} for none
     */
    Meter meter(String lockName, LockType type);

    /** How a call's acquisition ended. */
    enum Outcome {
        /** Every lock of the call is held. */
        ACQUIRED,
        /**
         * A lock was not free within the wait (or, for a nested call, its caller's hold was lost), and the call failed
         * with {@code LockNotAcquiredException}.
         */
        NOT_ACQUIRED,
        /** A lock was not free within the wait, and {@code onFailure = SKIP} let the call pass without its method. */
        SKIPPED,
        /** The calling thread was interrupted before or while waiting. */
        INTERRUPTED,
        /** Redis could not be asked, or did not answer in time. */
        ERROR,
        /**
         * The call cannot be locked as it was made, and no retry would change that: a call nested in one that holds
         * its key but cannot share that hold (it returns a {@code CompletionStage}, {@code Uni} or {@code Multi}, or
         * it would upgrade a read lock to a write lock). It failed with a {@code LockException} without asking Redis.
         */
        REFUSED
    }

    /**
     * Counts one method's calls. Called on the caller's thread, Redisson's I/O threads or Padlock's timer thread:
     * implementations must be thread-safe and must not block. An exception thrown here is logged once and otherwise
     * ignored; it never fails a call.
     */
    interface Meter {

        /**
         * A call starts to acquire its locks (its keys are rendered): called on the caller's thread, the one place
         * where what the caller runs in (a trace's current span) can be seen. Whatever this returns comes back to
         * {@link #acquired}, which may run on another thread; once per call that reaches this point.
         *
         * @return what {@link #acquired} needs of the start, or {@code null}: meters that only count need nothing
         */
        default Object acquiring() {
            return null;
        }

        /**
         * The acquisition ended; {@link Outcome#ACQUIRED} also means the call now holds its locks until {@link
         * #released}.
         *
         * @param waitNanos from the start of the acquisition (after the keys were rendered) to its end; 0 when the call
         *     ended before asking Redis (an interrupted caller, no connection yet)
         * @param acquiring what {@link #acquiring} returned for this call (possibly {@code null})
         */
        void acquired(Outcome outcome, long waitNanos, Object acquiring);

        /**
         * A call that acquired its locks gave them up: released them, or left them to lapse (its work may go on after
         * a cancellation). Once per {@link Outcome#ACQUIRED}.
         *
         * @param heldNanos from the first lock taken to the release
         */
        void released(long heldNanos);

        /** A lock of a running call was lost (once per lost lock; each is also a {@link LockLost} event). */
        void lost(LockLost.Detection detection);

        /**
         * A key this application took ended without its release: it expires in Redis (after its lease plus any
         * lock-delay), or is gone already. Once per such key: each lock lost while its method ran (but one whose
         * release got no answer, which may have been released) and each left to lapse (a cancelled result whose work
         * may still run).
         */
        default void expired() {}

        /** Redis confirmed a renewal of a held lock's lease. */
        void renewed();

        /** A renewal could not reach Redis, or got no answer; it is retried until the lock's deadline. */
        void renewalFailed();

        /** A call started to wait in the application's local queue for a key another call of it holds. */
        void queued();

        /** A call stopped waiting in the local queue: it got its turn, ran out of time or was cancelled. */
        void dequeued();
    }
}
