package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With {@code quarkus-micrometer}, the build tells Padlock to count its calls in the application's registry: the
 * same meters as on any CDI container, tagged by lock name and type, never by the rendered key.
 */
class MicrometerOnQuarkusTest {

    private static final String SKU = "sku-4711";

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Stock.class, Registry.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri());

    /** A registry the test can read; quarkus-micrometer adds it to the one Padlock is given. */
    public static class Registry {
        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    @ApplicationScoped
    public static class Stock {
        @Locked(value = "q-stock", key = "{sku}")
        public String reserve(String sku) {
            return sku;
        }

        @Locked(value = "q-stock", key = "{sku}")
        public void hold(String sku, CountDownLatch entered, CountDownLatch done) throws InterruptedException {
            entered.countDown();
            done.await(30, TimeUnit.SECONDS);
        }

        @Locked(value = "q-stock", key = "{sku}", waitTime = "0")
        public String reserveNow(String sku) {
            return sku;
        }

        @Locked(value = "q-stock", key = "{sku}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String reserveIfFree(String sku) {
            return sku;
        }
    }

    @Inject
    Stock stock;

    @Inject
    SimpleMeterRegistry registry;

    @Test
    void countsCallsInTheApplicationsRegistry() throws Exception {
        assertThat(stock.reserve(SKU)).isEqualTo(SKU);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try {
                stock.hold(SKU, entered, done);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(registry.get("padlock.lock.active")
                        .tags("lock", "q-stock", "type", "reentrant")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(catchThrowable(() -> stock.reserveNow(SKU))).isInstanceOf(LockNotAcquiredException.class);
        assertThat(stock.reserveIfFree(SKU)).isNull();
        done.countDown();
        holder.get(10, TimeUnit.SECONDS);

        assertThat(acquire(registry, "acquired")).isEqualTo(2);
        assertThat(acquire(registry, "not_acquired")).isEqualTo(1);
        assertThat(acquire(registry, "skipped")).isEqualTo(1);
        assertThat(registry.get("padlock.lock.held")
                        .tag("lock", "q-stock")
                        .timer()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("padlock.lock.active")
                        .tags("lock", "q-stock", "type", "reentrant")
                        .gauge()
                        .value())
                .isZero();
        assertThat(registry.find("padlock.lock.lost").counters()).isNotEmpty();
        assertThat(registry.find("padlock.lease.renewals").counters()).isNotEmpty();
        assertThat(registry.find("padlock.lock.waiting").gauges()).isNotEmpty();
        assertThat(registry.getMeters())
                .filteredOn(meter -> meter.getId().getName().startsWith("padlock."))
                .allSatisfy(meter -> assertThat(meter.getId().getTags())
                        .extracting(Tag::getValue)
                        .noneMatch(value -> value.contains(SKU) || value.contains("padlock:")));
    }

    private static long acquire(MeterRegistry registry, String outcome) {
        return registry.get("padlock.lock.acquire")
                .tags("lock", "q-stock", "type", "reentrant", "outcome", outcome)
                .timer()
                .count();
    }
}
