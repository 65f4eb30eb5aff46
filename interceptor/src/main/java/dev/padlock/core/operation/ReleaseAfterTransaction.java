package dev.padlock.core.operation;

import dev.padlock.core.CallerTransactions;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.lease.LockLosses;
import dev.padlock.core.redis.Acquisition;

/**
 * A call that ended inside its caller's transaction ({@code ReleasePolicy.AFTER_TRANSACTION}): its locks stay held,
 * renewed as while the method ran, until the transaction completes; then they are released (or handed on) as any
 * call's are, on the thread that completed it, unless a later call of the transaction still shares them: then when
 * that call ends. Its hold time counts the wait. A lock lost meanwhile is reported as such; with {@code
 * on-lease-lost=throw}, the transaction is rolled back instead of committing what the lock no longer protects.
 */
final class ReleaseAfterTransaction implements CallerTransactions.Completion {

    private static final System.Logger LOG = System.getLogger(ReleaseAfterTransaction.class.getName());

    final LockedCall call;
    private final Object transaction;
    private final Releaser releaser;
    private final TransactionWaits waits;
    private final boolean rollBackOnLoss;

    ReleaseAfterTransaction(
            LockedCall call, Object transaction, Releaser releaser, TransactionWaits waits, boolean rollBackOnLoss) {
        this.call = call;
        this.transaction = transaction;
        this.releaser = releaser;
        this.waits = waits;
        this.rollBackOnLoss = rollBackOnLoss;
    }

    @Override
    public boolean mustRollBack() {
        if (rollBackOnLoss) {
            // A renewal or a hand-off's check still in flight may yet find the lock lost: its answer decides, not the
            // moment the commit began. Bounded like a release; answered at once, usually.
            Acquisition.awaitUninterruptibly(
                    call.inFlightAnswered(), System.nanoTime() + Releaser.RELEASE_TIMEOUT_NANOS);
        }
        // Also finds (and reports) a deadline that passed since the last renewal tick.
        return LockLosses.overdueNow(call, System.nanoTime()) != null && rollBackOnLoss;
    }

    @Override
    public void completed(boolean committed) {
        try {
            waits.release(transaction, call);
            releaser.releaseAll(call);
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
