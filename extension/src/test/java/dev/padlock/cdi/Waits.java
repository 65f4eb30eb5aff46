package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.engine.PadlockEngine;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** What the scenario tests wait for, each for at most 10 s: a latch a body holds, a condition the test polls. */
public final class Waits {

    private Waits() {}

    /** Waits for {@code latch}, failing the caller (an assertion) when it is not counted down within 10 s. */
    public static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls {@code condition} every 10 ms; fails naming {@code what} when it does not hold within 10 s. */
    public static void until(BooleanSupplier condition, String what) {
        poll(condition);
        assertThat(condition.getAsBoolean()).as("%s within 10 s", what).isTrue();
    }

    /**
     * Waits until {@code app}'s engine holds {@code key}, its acquisition answered; fails after 10 s. A test that cuts a
     * holder off Redis waits for this, not for the key in Redis: the key is there as soon as Redis ran the script, while
     * its answer may still be on the way, and a cut then leaves the acquisition in doubt instead of a lock held.
     */
    public static void untilHeld(Deployment app, String key) {
        PadlockEngine engine = app.bean(PadlockEngine.class);
        until(
                () -> engine.liveLocks().held().stream()
                        .anyMatch(held -> held.key().equals(key)),
                "the holder to hold " + key + " (its acquisition answered)");
    }

    /** Polls {@code condition} every 10 ms for at most 10 s, and goes on whether it holds or not. */
    public static void poll(BooleanSupplier condition) {
        try {
            for (int i = 0; i < 1000 && !condition.getAsBoolean(); i++) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A call that may throw, as {@link #retried} takes it. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws Exception;
    }

    /**
     * {@code call}'s result, retried every 100 ms while it throws, for at most 30 s: for the first calls after a
     * server restarted or failed over, while Redisson still holds connections to the old process or master.
     */
    public static <T> T retried(Call<T> call) throws Exception {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return call.run();
            } catch (RuntimeException e) {
                if (System.nanoTime() - giveUp > 0) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }
}
