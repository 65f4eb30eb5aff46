package dev.padlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one side of a row for a fixed time on fresh platform threads and measures it: every call's latency,
 * and over exactly the window of the calls, JVM CPU, allocation and the commands Redis ran.
 */
final class Pass {

    /** Latencies up to a minute, to three significant digits. */
    private static final long HIGHEST_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Call call;
    private final Section section;
    private final int threads;
    private final Topology redis;

    private volatile boolean stop;

    Pass(Call call, Section section, int threads, Topology redis) {
        this.call = call;
        this.section = section;
        this.threads = threads;
        this.redis = redis;
    }

    /** Host CPU used by neither this JVM nor Redis over the pass; -1 where the host does not say. */
    private static long foreign(Snapshot before, Snapshot after) {
        if (before.hostBusyNanos < 0 || after.hostBusyNanos < 0) {
            return -1;
        }
        long host = after.hostBusyNanos - before.hostBusyNanos;
        long ours = Snapshot.cpuBetween(before, after);
        long redisCpu = Math.round((after.redisCpuSeconds - before.redisCpuSeconds) * 1e9);
        return Math.max(0, host - ours - redisCpu);
    }

    Sample run(Duration length) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        CountDownLatch leave = new CountDownLatch(1);
        Histogram[] latencies = new Histogram[threads];
        long[] ops = new long[threads];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[threads];
        long overlapsBefore = section.overlaps();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            latencies[t] = new Histogram(HIGHEST_NANOS, 3);
            workers[t] = new Thread(
                    () -> {
                        Histogram latency = latencies[thread];
                        long count = 0;
                        ready.countDown();
                        try {
                            go.await();
                            while (!stop) {
                                long start = System.nanoTime();
                                call.run(thread, section);
                                latency.recordValue(Math.min(System.nanoTime() - start, HIGHEST_NANOS));
                                count++;
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                            stop = true;
                        } finally {
                            ops[thread] = count;
                            done.countDown();
                        }
                        // Stay alive until the final snapshot has read this thread's allocation counter.
                        try {
                            leave.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "bench-worker-" + t);
            workers[t].start();
        }
        ready.await();
        Snapshot before = Snapshot.before(redis);
        go.countDown();
        long deadline = System.nanoTime() + length.toNanos();
        while (!stop && System.nanoTime() < deadline) {
            Thread.sleep(Math.max(1, Math.min(50, (deadline - System.nanoTime()) / 1_000_000)));
        }
        stop = true;
        done.await();
        Snapshot after = Snapshot.after(redis);
        leave.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a call failed during the pass: " + failure.get(), failure.get());
        }
        Histogram all = new Histogram(HIGHEST_NANOS, 3);
        long total = 0;
        for (int t = 0; t < threads; t++) {
            all.add(latencies[t]);
            total += ops[t];
        }
        if (total == 0) {
            throw new IllegalStateException("no call completed in " + length);
        }
        return new Sample(
                total,
                after.nanos - before.nanos,
                all,
                Snapshot.cpuBetween(before, after),
                Snapshot.allocatedBetween(before, after),
                after.commands.minus(before.commands),
                after.redisCpuSeconds - before.redisCpuSeconds,
                section.overlaps() - overlapsBefore,
                foreign(before, after));
    }
}
