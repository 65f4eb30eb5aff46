package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.RedissonFairLock;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

/**
 * A lock injected with {@code @Named} is a Redisson lock on Padlock's prefixed key, of the type the injection point
 * asks for or the one configured for the name ({@code padlock.locks."orders".type=fair}).
 */
public abstract class NamedLockBeansContract extends Scenario {

    public static final ApplicationUnderTest APPLICATION =
            ApplicationUnderTest.of(Jobs.class).with("padlock.locks.\"orders\".type", "fair");

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

        public RLock report() {
            return report;
        }

        public RLock orders() {
            return orders;
        }

        public RReadWriteLock catalog() {
            return catalog;
        }

        public RFencedLock payments() {
            return payments;
        }
    }

    @Test
    void eachNamedInjectionPointGetsALockOnItsPrefixedKey() throws Exception {
        Jobs jobs = bean(Jobs.class);

        assertThat(jobs.report().getName()).isEqualTo("padlock:nightly-report");
        assertThat(jobs.report().tryLock(0, 10, TimeUnit.SECONDS)).isTrue();
        assertThat(redisson().getKeys().countExists("padlock:nightly-report")).isEqualTo(1L);
        jobs.report().unlock();

        assertThat(jobs.orders()).isInstanceOf(RedissonFairLock.class);
        assertThat(jobs.orders().getName()).isEqualTo("padlock:orders");
        assertThat(jobs.orders().tryLock(0, 5, TimeUnit.SECONDS)).isTrue();
        jobs.orders().unlock();

        assertThat(jobs.catalog().readLock().getName()).isEqualTo("padlock:catalog");
        assertThat(jobs.catalog().writeLock().getName()).isEqualTo("padlock:catalog");

        Long token = jobs.payments().tryLockAndGetToken(0, 10, TimeUnit.SECONDS);
        assertThat(token)
                .as("minted from the server's clock (ms x 1024), as the tokens of @Locked calls")
                .isGreaterThan((System.currentTimeMillis() - TimeUnit.MINUTES.toMillis(1)) * 1024);
        jobs.payments().unlock();
        Long next = jobs.payments().lockAndGetToken();
        assertThat(next).as("the watchdog form's token").isGreaterThan(token);
        assertThat(jobs.payments().getToken()).as("the key's last token").isEqualTo(next);
        jobs.payments().unlock();
        assertThat(padlockKeys()).doesNotContain("padlock:payments");
    }
}
