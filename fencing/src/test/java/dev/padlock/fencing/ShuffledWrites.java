package dev.padlock.fencing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many writers on one key with shuffled tokens, as holders would write whose leases ran out at random moments: tokens
 * rise, and each write arrives among a few of its neighbours. The writers go in rounds; between rounds, with every write of the round returned, the store's fence is
 * compared with the highest token it accepted so far. Before the last round one write carries a token above all the
 * others, so the last round's writes are all older than a write that returned before they started: how the control
 * ends does not depend on how the threads were scheduled.
 */
final class ShuffledWrites {

    static final int THREADS = 8;
    static final int ROUNDS = 10;
    static final int WRITES_PER_ROUND = 5;
    /** The shuffled writes; one more carries the highest token. */
    static final int WRITES = THREADS * ROUNDS * WRITES_PER_ROUND;
    /** How far a write may arrive out of order: among the next or previous 15 tokens. */
    static final int WINDOW = 16;
    /** Tokens about as large as Padlock's (server time in ms × 1024). */
    static final long BASE = 1L << 51;

    /** One key of a store, written with or without the token check. */
    interface Store {
        /** Writes {@code token} (and a value naming it); false when the store refused it as stale. */
        boolean write(long token) throws Exception;

        /** The fence the store holds now. */
        long fence() throws Exception;
    }

    /**
     * What happened.
     *
     * @param accepted writes the store took
     * @param refused writes it refused as stale
     * @param wentBack accepted writes older than a write accepted (and returned) before they started
     * @param roundsEndedBehind rounds after which the store's fence was below the highest token it had accepted
     * @param highest the token above all others, written before the last round
     * @param finalFence the store's fence at the end
     */
    record Outcome(int accepted, int refused, int wentBack, int roundsEndedBehind, long highest, long finalFence) {}

    /** Runs the writes on {@code store}; {@code label} names the run in the test's output. */
    static Outcome run(String label, Store store) throws Exception {
        // Holders take rising tokens, and a late write arrives among a few later ones: each run of WINDOW tokens is
        // shuffled, and dealt out in turn, so the threads write neighbouring tokens at the same moment.
        Random random = new Random(20261129);
        List<List<Long>> own = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            own.add(new ArrayList<>());
        }
        for (long start = 1; start <= WRITES; start += WINDOW) {
            List<Long> window = new ArrayList<>();
            for (long i = start; i < start + WINDOW; i++) {
                window.add(BASE + i);
            }
            Collections.shuffle(window, random);
            for (int i = 0; i < WINDOW; i++) {
                own.get(i % THREADS).add(window.get(i));
            }
        }
        long highest = BASE + WRITES + 1;

        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger wentBack = new AtomicInteger();
        AtomicInteger roundsEndedBehind = new AtomicInteger();
        AtomicLong highestAccepted = new AtomicLong();
        AtomicInteger round = new AtomicInteger();
        // Runs once per round, in the last thread to arrive, while the others wait: every write of the round returned.
        CyclicBarrier endOfRound = new CyclicBarrier(THREADS, () -> {
            try {
                if (store.fence() < highestAccepted.get()) {
                    roundsEndedBehind.incrementAndGet();
                }
                if (round.incrementAndGet() == ROUNDS - 1) {
                    write(store, highest, accepted, refused, wentBack, highestAccepted);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                List<Long> tokens = own.get(t);
                writers.add(threads.submit(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        for (long token : tokens.subList(r * WRITES_PER_ROUND, (r + 1) * WRITES_PER_ROUND)) {
                            write(store, token, accepted, refused, wentBack, highestAccepted);
                        }
                        endOfRound.await(60, TimeUnit.SECONDS);
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        Outcome outcome = new Outcome(
                accepted.get(), refused.get(), wentBack.get(), roundsEndedBehind.get(), highest, store.fence());
        // In the test report: what the check caught, or what the control let through.
        System.out.println(label + ": " + outcome);
        return outcome;
    }

    private static void write(
            Store store,
            long token,
            AtomicInteger accepted,
            AtomicInteger refused,
            AtomicInteger wentBack,
            AtomicLong highestAccepted)
            throws Exception {
        long acceptedBefore = highestAccepted.get();
        if (store.write(token)) {
            accepted.incrementAndGet();
            if (token < acceptedBefore) {
                wentBack.incrementAndGet();
            }
            highestAccepted.accumulateAndGet(token, Math::max);
        } else {
            refused.incrementAndGet();
        }
    }

    private ShuffledWrites() {}
}
