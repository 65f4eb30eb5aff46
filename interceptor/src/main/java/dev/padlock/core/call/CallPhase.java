package dev.padlock.core.call;

/**
 * Where one {@code @Locked} call is in its life, kept in one place ({@link LeaseBook}) and checked at each move:
 *
 * <pre>
 *   ACQUIRING ──► RUNNING ──► DEFERRED
 *     │   │         │  ▲          │
 *     │   ▼         │  └──────────┤ (the transaction refused the call: released at return)
 *     │ ABANDONED   │             │
 *     │   │         ▼             ▼
 *     └───┴──────► RELEASING ───► DONE
 *     └────────────► LAPSING ◄─── (from ACQUIRING, RUNNING or DEFERRED)
 * </pre>
 *
 * A call holds (or is taking) its locks, and renews them, until it is {@link #RELEASING} or {@link #LAPSING}; a lock
 * found lost is a fact recorded beside the phase ({@link LeaseBook#markLost}), not a phase: the call goes on to its
 * end as usual and says so there. So is whether the body ran ({@link ThreadCalls#bind}), which a release reads after
 * the phase moved on.
 */
public enum CallPhase {
    /** Taking its locks: queued behind this application's other callers of a key, or asking Redis. */
    ACQUIRING,
    /** The method body runs, or ran and the call is ending. */
    RUNNING,
    /**
     * The body ended inside something its release timing waits for (its caller's transaction): the locks are kept,
     * and renewed, until that completes.
     */
    DEFERRED,
    /** Its caller cancelled before the body ran: the body never runs, what was taken is released. */
    ABANDONED,
    /** Its release began: nothing is renewed or reported for it any more, its unlocks are under way. */
    RELEASING,
    /**
     * Left to lapse: its work may still run but its end cannot be observed, so its locks are not released but lapse
     * with their lease, their turns passing on at their deadlines. Final.
     */
    LAPSING,
    /** Its release was answered (or reported unconfirmed). Final. */
    DONE;

    /** Whether the call still holds, or is taking, its locks: they are renewed, shared and may be released. */
    public boolean beforeRelease() {
        return this == ACQUIRING || this == RUNNING || this == DEFERRED || this == ABANDONED;
    }

    /** Whether a call in this phase may move to {@code next}; see the diagram above. */
    public boolean mayBecome(CallPhase next) {
        return switch (this) {
            case ACQUIRING -> next == RUNNING || next == ABANDONED || next == RELEASING || next == LAPSING;
            case RUNNING -> next == DEFERRED || next == RELEASING || next == LAPSING;
            case DEFERRED -> next == RUNNING || next == RELEASING || next == LAPSING;
            case ABANDONED -> next == RELEASING;
            case RELEASING -> next == DONE;
            case LAPSING, DONE -> false;
        };
    }
}
