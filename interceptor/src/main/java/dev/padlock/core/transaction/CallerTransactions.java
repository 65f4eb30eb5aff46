package dev.padlock.core.transaction;

import java.util.List;

/**
 * The caller's transaction as {@link ReleaseAfterTransaction} sees it: a call that ends while a transaction is
 * active on its thread is released once that transaction has completed, so the next holder reads what it committed.
 * Where Jakarta Transactions is on the class path, {@link JtaTransactions} gives the caller's JTA transaction;
 * elsewhere there is none ({@link #NONE}).
 */
public interface CallerTransactions {

    CallerTransactions NONE = new CallerTransactions() {
        @Override
        public boolean isActive() {
            return false;
        }

        @Override
        public boolean awaitCompletion(Completion completion) {
            return false;
        }

        @Override
        public List<Completion> awaiting() {
            return List.of();
        }

        @Override
        public Object current() {
            return null;
        }
    };

    /** Looks up what it needs now: at deployment, where the container's naming context is at hand. */
    default void resolveNow() {}

    /** Whether a transaction is active on the calling thread (a check that allocates nothing). */
    boolean isActive();

    /**
     * Has {@code completion} told when the transaction active on the calling thread completes, and remembers it with
     * that transaction (see {@link #awaiting}).
     *
     * @return false when no transaction is active on this thread, or it cannot take part any more (it is completing):
     *     nothing was registered, and the caller releases now
     */
    boolean awaitCompletion(Completion completion);

    /** What waits for the transaction active on the calling thread ({@link #awaitCompletion}); empty when none. */
    List<Completion> awaiting();

    /**
     * The transaction active on the calling thread, as an object that is equal only for the same transaction (JTA's
     * transaction key), or {@code null} when none is active.
     */
    Object current();

    /**
     * Marks the transaction active on the calling thread rollback-only, so that nothing it wrote commits; nothing
     * happens when none is active.
     */
    default void markRollbackOnly() {}

    /** What a call waiting for its caller's transaction hears of it. */
    interface Completion {

        /**
         * The transaction is about to commit: true to have it rolled back instead (the call's lock was lost while it
         * waited, and the call was asked to fail on a lost lock).
         */
        boolean mustRollBack();

        /**
         * The transaction committed or rolled back. Called once, on the thread that completed it (for a transaction
         * that timed out, maybe another than the caller's); must not throw.
         */
        void completed(boolean committed);
    }
}
