package dev.padlock.core.call;

/**
 * Which call's body runs on each thread, innermost first: {@link dev.padlock.LockContext} and {@link BoundCall}
 * describe it, and a call made inside it shares its holds of the same keys ({@link LockedCall#sharesHolds}). A call
 * is bound while its method body (or the code given to {@code Locks}) runs on the calling thread.
 */
public final class ThreadCalls {

    private static final ThreadLocal<LockedCall> CURRENT = new ThreadLocal<>();

    private ThreadCalls() {}

    /**
     * {@code call}'s body is about to run on this thread: makes it the thread's call until {@link #unbind}, and
     * moves it to {@link CallPhase#RUNNING}. Returns the call it hides (its enclosing call), for {@link #unbind}.
     */
    public static LockedCall bind(LockedCall call) {
        LockedCall outer = CURRENT.get();
        call.bodyStarts(outer);
        CURRENT.set(call);
        return outer;
    }

    /** The body bound last ended: {@code outer}, what {@link #bind} returned, is the thread's call again. */
    public static void unbind(LockedCall outer) {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }

    /** The call whose body runs on this thread, or {@code null}. */
    public static LockedCall current() {
        return CURRENT.get();
    }
}
