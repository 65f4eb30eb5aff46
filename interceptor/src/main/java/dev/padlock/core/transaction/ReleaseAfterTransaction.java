package dev.padlock.core.transaction;

import dev.padlock.core.call.LockedCall;
import dev.padlock.core.operation.ReleaseTiming;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code padlock.release=after-transaction}, the default: a blocking call that ends inside its caller's transaction
 * keeps its locks, renewed as while the method ran, until the transaction completes; then they are released (or handed
 * on) as any call's are, on the thread that completed it, unless a later call of the transaction still shares them:
 * then when that call ends. A lock lost meanwhile is reported as such; with {@code on-lease-lost=throw}, the
 * transaction is rolled back instead of committing what the lock no longer protects. Two transactions that would each
 * wait for a key the other keeps fail at once instead ({@link TransactionWaits}). One per engine.
 */
public final class ReleaseAfterTransaction implements ReleaseTiming {

    private static final System.Logger LOG = System.getLogger(ReleaseAfterTransaction.class.getName());

    private final CallerTransactions transactions;
    private final TransactionWaits waits = new TransactionWaits();

    /** @param transactions the callers' transactions ({@link JtaTransactions#ifPresent}) */
    public ReleaseAfterTransaction(CallerTransactions transactions) {
        this.transactions = transactions;
    }

    @Override
    public Object scope() {
        return transactions.isActive() ? transactions.current() : null; // the common case allocates nothing
    }

    @Override
    public List<LockedCall> keptFor(Object transaction) {
        if (transaction == null) {
            return List.of();
        }
        List<CallerTransactions.Completion> waiting = transactions.awaiting();
        if (waiting.isEmpty()) {
            return List.of();
        }
        List<LockedCall> calls = new ArrayList<>(waiting.size());
        for (CallerTransactions.Completion completion : waiting) {
            if (completion instanceof Kept kept) {
                calls.add(kept.call);
            }
        }
        return calls;
    }

    @Override
    public void workStopped(LockedCall call) {
        if (call.scope() != null) {
            transactions.markRollbackOnly();
        }
    }

    @Override
    public String neverEnds(LockedCall call, String key) {
        List<String> cycle = waits.waitFor(call.scope(), call, key);
        if (cycle == null) {
            return null;
        }
        String others = String.join(", which is kept by a transaction that waits for ", cycle.subList(1, cycle.size()));
        return "another transaction of this application keeps this key until it completes and waits for " + others
                + ", which this call's transaction keeps until it completes: each would wait for the other until its"
                + " wait ends (padlock.release=after-transaction keeps every key a transaction took until it"
                + " completes), so this call fails at once. Take the keys in one order in every transaction (sorted,"
                + " for instance), or in one call with a key template per key (Padlock sorts them), or set"
                + " padlock.locks.\"" + call.facts.lockName() + "\".release=on-return";
    }

    @Override
    public void waited(LockedCall call) {
        if (call.scope() != null) {
            waits.waited(call.scope(), call);
        }
    }

    /**
     * Hands the call's release to its caller's transaction. Whatever the transaction manager throws, an Error too,
     * answers false (the call is released now): a lock is never kept for a transaction nobody will tell it of.
     */
    @Override
    public boolean defer(LockedCall call, Deferred release) {
        try {
            if (!transactions.isActive()) {
                return false; // the common case, allocation-free
            }
            Object transaction = transactions.current();
            call.deferRelease("awaiting transaction"); // before the transaction can complete, maybe on another thread
            // before it can complete, too: its keys are known to be kept from now on
            waits.keep(transaction, call);
            if (transactions.awaitCompletion(new Kept(call, transaction, release))) {
                return true;
            }
            waits.release(transaction, call);
        } catch (RuntimeException | Error e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Padlock could not register " + call.facts.method() + " with its caller's transaction, so its"
                            + " lock is released now, before that transaction commits. Check the transaction"
                            + " manager's log; set padlock.locks.\"" + call.facts.lockName() + "\".release=on-return"
                            + " to skip the attempt",
                    e);
        }
        call.releaseAtReturn();
        return false;
    }

    /** A call kept until its caller's transaction completes, as that transaction hears of it. */
    private final class Kept implements CallerTransactions.Completion {

        final LockedCall call;
        private final Object transaction;
        private final Deferred release;

        Kept(LockedCall call, Object transaction, Deferred release) {
            this.call = call;
            this.transaction = transaction;
            this.release = release;
        }

        @Override
        public boolean mustRollBack() {
            return release.mustFail(call);
        }

        @Override
        public void completed(boolean committed) {
            try {
                waits.release(transaction, call);
                release.release(call);
            } catch (Throwable e) {
                // The transaction manager's thread: nothing may escape. The lock lapses with its lease.
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Padlock: releasing " + call.keys() + " of " + call.facts.method()
                                + " after its caller's transaction failed; the lock lapses with its lease",
                        e);
            }
        }
    }
}
