package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.RedissonFairLock;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

@ExtendWith(RedisExtension.class)
class NamedLockBeansTest {

    @ApplicationScoped
    public static class Jobs {
        @Inject
        @Named("nightly-report")
        RLock report;

        @Inject
        @Named("orders")
        RLock orders;

        @Inject
        @Named("catalog")
        RReadWriteLock catalog;

        @Inject
        @Named("payments")
        RFencedLock payments;

        RLock report() {
            return report;
        }

        RLock orders() {
            return orders;
        }

        RReadWriteLock catalog() {
            return catalog;
        }

        RFencedLock payments() {
            return payments;
        }
    }

    @Test
    void eachNamedInjectionPointGetsALockOnItsPrefixedKey(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.locks.\"orders\".type", "fair"), Jobs.class)) {
            Jobs jobs = app.bean(Jobs.class);

            assertThat(jobs.report().getName()).isEqualTo("padlock:nightly-report");
            assertThat(jobs.report().tryLock(0, 10, TimeUnit.SECONDS)).isTrue();
            assertThat(redis.command("EXISTS", "padlock:nightly-report")).isEqualTo(1L);
            jobs.report().unlock();

            assertThat(jobs.orders()).isInstanceOf(RedissonFairLock.class);
            assertThat(jobs.orders().getName()).isEqualTo("padlock:orders");

            assertThat(jobs.catalog().readLock().getName()).isEqualTo("padlock:catalog");

            Long token = jobs.payments().tryLockAndGetToken(0, 10, TimeUnit.SECONDS);
            assertThat(token).isPositive();
            jobs.payments().unlock();
            assertThat(redis.command("KEYS", "padlock:*")).asList().doesNotContain("padlock:payments");
        }
    }
}
