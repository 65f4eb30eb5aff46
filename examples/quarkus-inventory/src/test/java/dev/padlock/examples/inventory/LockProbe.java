package dev.padlock.examples.inventory;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test-only locked methods that {@link DevModeTest} adds to the example, so that the Dev UI's live page has something
 * to show: a lock held until the test lets go (its other callers queue locally: a reentrant lock), and a fixed lease
 * that the method outlives (a loss).
 */
@ApplicationScoped
public class LockProbe {

    private volatile CountDownLatch release = new CountDownLatch(1);

    @Locked(value = "probe", key = "{id}", waitTime = "60s")
    public String hold(String id) throws InterruptedException {
        release.await(60, TimeUnit.SECONDS);
        return id;
    }

    @Locked(value = "probe-lease", leaseTime = "300ms")
    public String overrun() throws InterruptedException {
        Thread.sleep(1_000);
        return "done";
    }

    public void releaseAll() {
        release.countDown();
    }
}
