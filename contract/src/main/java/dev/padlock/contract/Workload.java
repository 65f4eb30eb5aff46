package dev.padlock.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Many callers at once: each thread of a fixed pool makes its calls one after another; the first failure is thrown.
 * (Public, as is what the scenarios share: Quarkus may load a scenario and its bean classes with different class
 * loaders, and package-private access does not reach across them.)
 */
public final class Workload {

    @FunctionalInterface
    public interface Call {
        /** Call number {@code call} of thread number {@code thread}. */
        void make(int thread, int call);
    }

    private Workload() {}

    /** Runs {@code callsPerThread} calls on each of {@code threads} threads, and waits at most 5 minutes for them. */
    public static void run(int threads, int callsPerThread, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < callsPerThread; i++) {
                        call.make(thread, i);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
