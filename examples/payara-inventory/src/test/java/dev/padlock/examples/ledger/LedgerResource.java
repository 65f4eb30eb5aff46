package dev.padlock.examples.ledger;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /ledger-check?release=after-transaction|on-return}: two callers, each in a transaction of its own, on
 * one new row. The second starts as soon as the first one's locked call returned, while the first waits up to 1 s
 * before it commits. Answers {@code <what the second read> <the committed amount>}: {@code 1 2} when the lock
 * outlived the first transaction, {@code 0 1} when the second read the old row and the first update was lost.
 */
@Path("/ledger-check")
public class LedgerResource {

    @Inject
    Callers callers;

    @Inject
    Counter counter;

    @POST
    @Produces(MediaType.TEXT_PLAIN)
    public String check(@QueryParam("release") String release) throws Exception {
        boolean onReturn = "on-return".equals(release);
        String id = UUID.randomUUID().toString();
        counter.create(id);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch returned = new CountDownLatch(1);
            CountDownLatch secondRead = new CountDownLatch(1);
            Future<Integer> first = threads.submit(() -> callers.incrementThenWait(id, onReturn, returned, secondRead));
            if (!returned.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the first call did not return");
            }
            Future<Integer> second = threads.submit(() -> callers.increment(id, onReturn, secondRead::countDown));
            first.get(20, TimeUnit.SECONDS);
            int seen = second.get(20, TimeUnit.SECONDS);
            return seen + " " + counter.amount(id);
        } finally {
            threads.shutdownNow();
        }
    }
}
