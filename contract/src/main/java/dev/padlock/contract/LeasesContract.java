package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * The lease a lock gets in Redis follows the annotation (on the method or its class), per-lock configuration and
 * the watchdog timeout. Each method reads its key's time to live while it holds it.
 */
public abstract class LeasesContract extends Scenario {

    public static final ApplicationUnderTest APPLICATION = ApplicationUnderTest.of(Leases.class, ClassLevel.class)
            .with("padlock.watchdog-timeout", "4s")
            .with("padlock.locks.\"overridden\".lease-time", "3s");

    @ApplicationScoped
    public static class Leases {
        @Inject
        RedissonClient redisson;

        @Locked(value = "fixed", leaseTime = "10s")
        public long fixedLease() {
            return redisson.getKeys().remainTimeToLive("padlock:fixed");
        }

        @Locked("watched")
        public long watchdog() {
            return redisson.getKeys().remainTimeToLive("padlock:watched");
        }

        @Locked(value = "overridden", leaseTime = "10s")
        public long overridden() {
            return redisson.getKeys().remainTimeToLive("padlock:overridden");
        }
    }

    @ApplicationScoped
    @Locked(value = "class-level", leaseTime = "10s")
    public static class ClassLevel {
        @Inject
        RedissonClient redisson;

        public long ttl() {
            return redisson.getKeys().remainTimeToLive("padlock:class-level");
        }
    }

    @Test
    void aFixedLeaseBoundsTheKeysLifetime() {
        assertThat(bean(Leases.class).fixedLease()).isBetween(1L, 10_000L);
    }

    @Test
    void theWatchdogLeaseIsTheConfiguredWatchdogTimeout() {
        assertThat(bean(Leases.class).watchdog()).isBetween(1L, 4_000L);
    }

    @Test
    void perLockConfigBeatsTheAnnotation() {
        assertThat(bean(Leases.class).overridden()).isBetween(1L, 3_000L);
    }

    @Test
    void aClassLevelLeaseBoundsTheKeysLifetime() {
        assertThat(bean(ClassLevel.class).ttl()).isBetween(1L, 10_000L);
    }
}
