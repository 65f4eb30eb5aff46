package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Test callers, each on its own thread, started at once; {@link #await} joins them and rethrows a failure. */
public final class Callers {

    @FunctionalInterface
    public interface Body {
        /** What caller number {@code caller} does. */
        void run(int caller) throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private Callers() {}

    public static Callers start(int count, Body body) {
        Callers callers = new Callers();
        for (int c = 0; c < count; c++) {
            int caller = c;
            Thread thread = new Thread(() -> {
                try {
                    body.run(caller);
                } catch (Throwable e) {
                    callers.failure.compareAndSet(null, e);
                }
            });
            callers.threads.add(thread);
            thread.start();
        }
        return callers;
    }

    public boolean anyRunning() {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    public void interruptOneAtRandom() {
        threads.get(ThreadLocalRandom.current().nextInt(threads.size())).interrupt();
    }

    /** Waits up to 2 minutes for each caller; fails if one still runs or one failed. */
    public void await() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(thread.isAlive())
                    .as("a caller still runs after 2 minutes")
                    .isFalse();
        }
        if (failure.get() != null) {
            throw new AssertionError("a caller failed", failure.get());
        }
    }
}
