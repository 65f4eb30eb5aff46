package dev.padlock.benchmarks;

import dev.padlock.testing.CommandStats;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * The watchdog renewal storm, side by side: a burst of short watchdog-mode calls on one thread, then one lock
 * held for a few renewal periods while every EVAL/EVALSHA Redis runs is counted (nothing else is sent then, so
 * each is a renewal). Raw {@code lock(); unlock();} against {@code @Locked} without a lease.
 */
final class RenewalStorm {

    /** One side's count. */
    record Side(long renewals, long heldMillis, long periodMillis) {
        double perPeriod() {
            return renewals * (double) periodMillis / heldMillis;
        }
    }

    record Result(int burst, Duration watchdog, Side raw, Side padlock) {}

    private RenewalStorm() {}

    static Result run(Topology redis, int burst, Duration watchdog, int periods) throws Exception {
        long period = watchdog.toMillis() / 3;
        Duration window = Duration.ofMillis(period * periods);
        redis.reset();
        try (Application app = Application.start(redis, watchdog, false)) {
            RedissonClient raw = app.rawClient();
            for (int i = 0; i < burst; i++) {
                RLock lock = raw.getLock("storm-short:" + (i % 16));
                lock.lock();
                lock.unlock();
            }
            RLock held = raw.getLock("storm-held");
            held.lock();
            Side rawSide;
            try {
                rawSide = count(redis, window, period);
            } finally {
                held.unlock();
            }

            LockedCalls locked = app.locked();
            for (int i = 0; i < burst; i++) {
                locked.stormShort(i % 16);
            }
            AtomicReference<Side> padlockSide = new AtomicReference<>();
            AtomicReference<Exception> failure = new AtomicReference<>();
            locked.stormHeld(() -> {
                try {
                    padlockSide.set(count(redis, window, period));
                } catch (Exception e) {
                    failure.set(e);
                }
            });
            if (failure.get() != null) {
                throw failure.get();
            }
            return new Result(burst, watchdog, rawSide, padlockSide.get());
        }
    }

    private static Side count(Topology redis, Duration window, long period) throws InterruptedException {
        CommandStats before = redis.master().settledCommandStats();
        long start = System.nanoTime();
        Thread.sleep(window.toMillis());
        CommandStats during = redis.master().commandStats().minus(before);
        long held = (System.nanoTime() - start) / 1_000_000;
        return new Side(during.calls("evalsha") + during.calls("eval"), held, period);
    }
}
