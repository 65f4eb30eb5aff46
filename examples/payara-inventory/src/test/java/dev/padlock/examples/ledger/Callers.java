package dev.padlock.examples.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Callers that own the transaction around the locked increment. */
@ApplicationScoped
public class Callers {

    @Inject
    Counter counter;

    /** Increments, then waits up to 1 s after the locked call returned before the transaction commits. */
    @Transactional
    public int incrementThenWait(String id, boolean onReturn, CountDownLatch returned, CountDownLatch mayCommit)
            throws InterruptedException {
        int seen = onReturn ? counter.incrementOnReturn(id, () -> {}) : counter.increment(id, () -> {});
        returned.countDown();
        mayCommit.await(1, TimeUnit.SECONDS);
        return seen;
    }

    @Transactional
    public int increment(String id, boolean onReturn, Runnable afterRead) {
        return onReturn ? counter.incrementOnReturn(id, afterRead) : counter.increment(id, afterRead);
    }
}
