package dev.padlock.core.transaction;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@link JtaTransactions} where the API is present: the caller's transaction seen through the container's {@link
 * TransactionSynchronizationRegistry}. A call that ends inside it waits for its completion through one interposed
 * synchronization per transaction, which runs after the resources committed or rolled back (and before the
 * transaction manager's own completion returns to the caller). The only class that names the API's types: loaded
 * only once {@link JtaTransactions#ifPresent} found them.
 *
 * <p>The calls waiting for a transaction are kept as one of its resources (one list per application: the key is
 * this object), so that a later call of the same transaction on a key one of them still holds shares that hold
 * instead of waiting for it, which would wait for the transaction, which waits for the call.
 */
final class JtaCallerTransactions implements CallerTransactions {

    private static final System.Logger LOG = System.getLogger(JtaCallerTransactions.class.getName());

    private final Supplier<Object> lookup;
    private volatile boolean resolved;
    private volatile TransactionSynchronizationRegistry registry;

    JtaCallerTransactions(Supplier<Object> lookup) {
        this.lookup = lookup;
    }

    @Override
    public void resolveNow() {
        registry();
    }

    private TransactionSynchronizationRegistry registry() {
        if (!resolved) {
            synchronized (this) {
                if (!resolved) {
                    registry = find();
                    resolved = true;
                }
            }
        }
        return registry;
    }

    private TransactionSynchronizationRegistry find() {
        Object found;
        try {
            found = lookup.get();
        } catch (RuntimeException | LinkageError e) {
            found = null;
        }
        if (found instanceof TransactionSynchronizationRegistry tsr) {
            return tsr;
        }
        LOG.log(
                System.Logger.Level.INFO,
                "Padlock: Jakarta Transactions is on the class path, but the application has no transaction manager"
                        + " (no TransactionSynchronizationRegistry bean, nothing at " + JtaTransactions.JNDI_NAME
                        + "): locks are"
                        + " released when their method returns, as with padlock.release=on-return");
        return null;
    }

    @Override
    public boolean isActive() {
        TransactionSynchronizationRegistry tsr = registry();
        return tsr != null && isOpen(tsr.getTransactionStatus());
    }

    @Override
    public boolean awaitCompletion(Completion completion) {
        TransactionSynchronizationRegistry tsr = registry();
        if (tsr == null || !isOpen(tsr.getTransactionStatus())) {
            return false;
        }
        try {
            waiting(tsr).add(completion);
            return true;
        } catch (IllegalStateException e) {
            return false; // completing already: it can take no more synchronizations
        }
    }

    @Override
    public List<Completion> awaiting() {
        TransactionSynchronizationRegistry tsr = registry();
        if (tsr == null || !isOpen(tsr.getTransactionStatus())) {
            return List.of();
        }
        Object found = tsr.getResource(this);
        return found instanceof Waiting waiting ? waiting.snapshot() : List.of();
    }

    @Override
    public Object current() {
        TransactionSynchronizationRegistry tsr = registry();
        return tsr == null || !isOpen(tsr.getTransactionStatus()) ? null : tsr.getTransactionKey();
    }

    @Override
    public void markRollbackOnly() {
        TransactionSynchronizationRegistry tsr = registry();
        if (tsr != null && isOpen(tsr.getTransactionStatus())) {
            try {
                tsr.setRollbackOnly();
            } catch (IllegalStateException e) {
                // completing already: its own completion decides
            }
        }
    }

    /** This application's completions of the current transaction, registered with it on first use. */
    private Waiting waiting(TransactionSynchronizationRegistry tsr) {
        Object found = tsr.getResource(this);
        if (found instanceof Waiting waiting) {
            return waiting;
        }
        Waiting waiting = new Waiting(tsr);
        tsr.registerInterposedSynchronization(waiting);
        tsr.putResource(this, waiting);
        return waiting;
    }

    /** Active, or marked for rollback (it still completes, and its row locks are held until then). */
    private static boolean isOpen(int status) {
        return status == Status.STATUS_ACTIVE || status == Status.STATUS_MARKED_ROLLBACK;
    }

    /** The completions one transaction owes, told in the order they were registered. */
    private static final class Waiting implements Synchronization {

        private final TransactionSynchronizationRegistry tsr;
        private final List<Completion> completions = new ArrayList<>(2);

        Waiting(TransactionSynchronizationRegistry tsr) {
            this.tsr = tsr;
        }

        synchronized void add(Completion completion) {
            completions.add(completion);
        }

        synchronized List<Completion> snapshot() {
            return List.copyOf(completions);
        }

        @Override
        public void beforeCompletion() {
            for (Completion completion : snapshot()) {
                if (completion.mustRollBack()) {
                    tsr.setRollbackOnly();
                    return;
                }
            }
        }

        @Override
        public void afterCompletion(int status) {
            boolean committed = status == Status.STATUS_COMMITTED;
            for (Completion completion : snapshot()) {
                completion.completed(committed);
            }
        }
    }
}
