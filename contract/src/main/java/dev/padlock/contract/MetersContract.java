package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With Micrometer and a {@code MeterRegistry}, every {@code @Locked} call is counted in it: acquisitions by outcome,
 * holds, locks held and queued now, losses and renewals, tagged with the lock name and type and never with the
 * rendered key. (A runtime may bind meters of its own to the same registry: only Padlock's are read here.) It counts
 * from the application's start, so it is its application's only test.
 */
public abstract class MetersContract extends Scenario {

    /** Unlike any lock name or type, so a tag holding a rendered key would show it. */
    public static final String SKU = "sku-4711";

    public static final ApplicationUnderTest APPLICATION =
            ApplicationUnderTest.of(Stock.class, ReadableMeterRegistry.class).with("padlock.watchdog-timeout", "1s");

    /**
     * The holder and the waiter block at the same time, each on a thread of its own: CompletableFuture's default pool
     * may have only one (JDK 25 on a 2-core machine), and then the waiter would not start until the holder ended.
     */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @ApplicationScoped
    public static class Stock {
        @Locked(value = "stock", key = "{sku}")
        public String reserve(String sku) {
            return sku;
        }

        @Locked(value = "stock", key = "{sku}")
        public void hold(String sku, CountDownLatch entered, CountDownLatch done) throws InterruptedException {
            entered.countDown();
            done.await(30, TimeUnit.SECONDS);
        }

        @Locked(value = "stock", key = "{sku}", waitTime = "0")
        public String reserveNow(String sku) {
            return sku;
        }

        @Locked(value = "stock", key = "{sku}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String reserveIfFree(String sku) {
            return sku;
        }

        @Locked(value = "short", leaseTime = "200ms")
        public void overrun() throws InterruptedException {
            Thread.sleep(600);
        }
    }

    @Test
    void countsEveryOutcomeByLockNameAndTypeNeverByKey() throws Exception {
        Stock stock = bean(Stock.class);
        MeterRegistry registry = bean(SimpleMeterRegistry.class);

        assertThat(stock.reserve(SKU)).isEqualTo(SKU);
        assertThat(stock.reserve(SKU)).isEqualTo(SKU);

        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(
                () -> {
                    try {
                        stock.hold(SKU, entered, done);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(gauge(registry, "padlock.lock.active", "stock")).isEqualTo(1);

        assertThat(catchThrowable(() -> stock.reserveNow(SKU))).isInstanceOf(LockNotAcquiredException.class);
        assertThat(stock.reserveIfFree(SKU)).as("skipped").isNull();

        CompletableFuture<String> waiter = CompletableFuture.supplyAsync(() -> stock.reserve(SKU), threads);
        awaitGauge(registry, "padlock.lock.waiting", "stock", 1);
        Thread.sleep(1_000); // a watchdog-mode hold of over a third of the 1 s lease is renewed
        done.countDown();
        holder.get(10, TimeUnit.SECONDS);
        assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(SKU);
        awaitGauge(registry, "padlock.lock.waiting", "stock", 0);

        stock.overrun(); // its 200 ms lease ends while it runs

        assertThat(acquire(registry, "stock", "acquired")).isEqualTo(4);
        assertThat(acquire(registry, "stock", "not_acquired")).isEqualTo(1);
        assertThat(acquire(registry, "stock", "skipped")).isEqualTo(1);
        assertThat(acquire(registry, "stock", "interrupted")).isZero();
        assertThat(acquire(registry, "stock", "error")).isZero();
        assertThat(registry.get("padlock.lock.held")
                        .tag("lock", "stock")
                        .timer()
                        .count())
                .isEqualTo(4);
        assertThat(gauge(registry, "padlock.lock.active", "stock")).isZero();
        assertThat(registry.get("padlock.lease.renewals")
                        .tags("lock", "stock", "result", "renewed")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(1);
        assertThat(registry.get("padlock.lease.renewals")
                        .tags("lock", "stock", "result", "failed")
                        .counter()
                        .count())
                .isZero();
        assertThat(registry.get("padlock.lock.lost")
                        .tags("lock", "short", "type", "reentrant", "detection", "deadline")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("padlock.lock.lost").tags("lock", "stock").counters())
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
        assertThat(registry.get("padlock.lock.expired")
                        .tags("lock", "short", "type", "reentrant")
                        .counter()
                        .count())
                .as("the key that outlived its method's lease expired instead of being released")
                .isEqualTo(1);
        assertThat(registry.get("padlock.lock.expired")
                        .tags("lock", "stock")
                        .counter()
                        .count())
                .as("every stock key was released")
                .isZero();

        assertThat(padlocksMeters(registry))
                .as("Padlock's meters are tagged by name and type, never by a rendered key")
                .isNotEmpty()
                .allSatisfy(meter -> {
                    assertThat(meter.getId().getTag("type")).isEqualTo("reentrant");
                    assertThat(meter.getId().getTags())
                            .extracting(Tag::getValue)
                            .noneMatch(value -> value.contains(SKU) || value.contains("padlock:"));
                });
        checkTheRestOf(registry);
    }

    /**
     * What else the registry holds once the scenario has counted everything. A runtime that binds meters of its own
     * to the application's registry (Quarkus does) leaves this empty; one that binds none checks that there are none.
     */
    protected void checkTheRestOf(MeterRegistry registry) {}

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** The meters named {@code padlock.*} in {@code registry}. */
    private static List<Meter> padlocksMeters(MeterRegistry registry) {
        return registry.getMeters().stream()
                .filter(meter -> meter.getId().getName().startsWith("padlock."))
                .toList();
    }

    private static long acquire(MeterRegistry registry, String lock, String outcome) {
        return registry.get("padlock.lock.acquire")
                .tags("lock", lock, "type", "reentrant", "outcome", outcome)
                .timer()
                .count();
    }

    private static double gauge(MeterRegistry registry, String name, String lock) {
        return registry.get(name)
                .tags("lock", lock, "type", "reentrant")
                .gauge()
                .value();
    }

    private static void awaitGauge(MeterRegistry registry, String name, String lock, double expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gauge(registry, name, lock) != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(gauge(registry, name, lock)).as(name).isEqualTo(expected);
    }
}
