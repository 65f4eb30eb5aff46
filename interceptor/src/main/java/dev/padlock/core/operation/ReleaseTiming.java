package dev.padlock.core.operation;

import dev.padlock.core.call.LockedCall;
import java.util.List;

/**
 * When a blocking call whose work is done gives its locks up, for one release policy ({@code
 * padlock.locks."<name>".release}): at once ({@link #AT_RETURN}), or once something the call ended inside completes,
 * such as the caller's transaction ({@code dev.padlock.core.transaction.ReleaseAfterTransaction}). One instance per
 * policy and engine, looked up once per method ({@link EngineServices#releaseTiming}); a new policy is one class in a
 * room of its own, an enum constant and its wiring ({@code docs/internals/architecture.md}).
 *
 * <p>Each call asks it, on the caller's thread: what the call ends inside ({@link #scope}, before it is built), which
 * calls keep their locks for that scope (a new call of the scope shares their holds instead of waiting for them,
 * which would wait for its own scope), whether a wait would never end ({@link #neverEnds}), and at the end whether it
 * takes the release over ({@link #defer}).
 */
public interface ReleaseTiming {

    /** Released when the method returns: nothing is deferred, nothing kept, nothing allocated. */
    ReleaseTiming AT_RETURN = new ReleaseTiming() {
        @Override
        public Object scope() {
            return null;
        }

        @Override
        public List<LockedCall> keptFor(Object scope) {
            return List.of();
        }

        @Override
        public String neverEnds(LockedCall call, String key) {
            return null;
        }

        @Override
        public void waited(LockedCall call) {}

        @Override
        public boolean defer(LockedCall call, Deferred release) {
            return false;
        }
    };

    /**
     * What a call starting on this thread ends inside and would keep its locks for, as an object equal only for the
     * same one (JTA's transaction key); {@code null} when nothing is (the common case, which allocates nothing). The
     * operation records it on the call ({@link LockedCall#endsInside}).
     */
    Object scope();

    /** The calls that ended inside {@code scope} and keep their locks until it completes; empty when none. */
    List<LockedCall> keptFor(Object scope);

    /**
     * {@code call}, which ends inside its {@link LockedCall#scope}, is about to wait for {@code key}: why that wait
     * could never end (the key is kept for a scope that waits for one this call's scope keeps), as the rest of a
     * {@code LockNotAcquiredException}'s sentence, and the fix; else {@code null}, and the wait is recorded until
     * {@link #waited}.
     */
    String neverEnds(LockedCall call, String key);

    /** {@code call}'s acquisition ended, taken or not: it waits for nothing any more. */
    void waited(LockedCall call);

    /**
     * {@code call}'s work is done: true when its locks are kept until what it ended inside completes (asked now: the
     * caller's transaction as it is when the method returns), and then released through {@code release} ({@link
     * LockedCall#deferRelease} said so before that could complete); false when they cannot be (nothing to wait for,
     * or it is completing already), and the caller releases now. Called on the caller's thread, for every call that
     * took a lock: an answer of false must cost nothing.
     */
    boolean defer(LockedCall call, Deferred release);

    /**
     * {@code call}'s work was stopped at a loss ({@code on-lease-lost=interrupt}) and its body returned, on the caller's
     * thread: what the call ends inside (the caller's transaction) must not commit what the lock no longer protected,
     * even if the caller catches the call's {@code LockLostException}. Nothing by default.
     */
    default void workStopped(LockedCall call) {}

    /** What a release timing may do with a call whose release it took over; one per method, given by its operation. */
    interface Deferred {

        /**
         * Whether {@code call} lost a lock (found now: renewals in flight answered, an overdue deadline reported) and
         * its method fails on a lost lock ({@code on-lease-lost=throw}): what the scope would commit is unprotected.
         */
        boolean mustFail(LockedCall call);

        /** Releases {@code call}'s locks now, waiting (bounded) for Redis; reports what was found lost. */
        void release(LockedCall call);
    }
}
