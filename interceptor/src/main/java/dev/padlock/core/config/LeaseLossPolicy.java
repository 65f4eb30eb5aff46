package dev.padlock.core.config;

/**
 * What a call does when its lock was lost while the method ran ({@code padlock.on-lease-lost}, per lock
 * {@code padlock.locks."<name>".on-lease-lost}). The event, the WARN line and the metric happen either way.
 */
public enum LeaseLossPolicy {
    /** Report it; the call returns its result. The default. */
    WARN,
    /** Report it, then throw {@code LockLostException} after the method (suppressed into its own exception). */
    THROW,
    /**
     * Report it, and stop the work at the loss: the body's thread is interrupted while the body runs, a returned
     * {@code CompletionStage}, {@code Uni}, {@code Multi} or {@code Publisher} is cancelled; then throw {@code
     * LockLostException} (the body's own failure suppressed into it). The interrupt is cleared when the body returns.
     */
    INTERRUPT;

    /** Whether a call that lost a lock throws {@code LockLostException}. */
    public boolean throwsOnLoss() {
        return this != WARN;
    }
}
