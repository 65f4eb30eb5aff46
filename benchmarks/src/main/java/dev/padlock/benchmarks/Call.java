package dev.padlock.benchmarks;

/** One measured operation: lock, run the critical section, unlock. */
@FunctionalInterface
interface Call {
    void run(int thread, Runnable section) throws Exception;
}
