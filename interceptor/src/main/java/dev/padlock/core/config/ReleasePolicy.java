package dev.padlock.core.config;

/**
 * When a call that ends inside its caller's JTA transaction gives its lock up ({@code padlock.release}, per lock
 * {@code padlock.locks."<name>".release}). A call with no transaction on its thread is released when it ends either
 * way, and so is a method returning {@code CompletionStage}, {@code Uni} or {@code Multi}: its result ends on other
 * threads, outside the transaction it was called in.
 */
public enum ReleasePolicy {
    /**
     * After the transaction commits or rolls back, so the next holder reads what it committed. The lease goes on
     * being renewed (or runs out, and the lock is reported lost) while the transaction completes. The default.
     */
    AFTER_TRANSACTION,
    /** When the method returns, before the caller's transaction commits: the next holder may read the rows as before. */
    ON_RETURN
}
