package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The lease a lock gets in Redis follows annotation, per-lock config and the watchdog timeout. */
@ExtendWith(RedisExtension.class)
class WaitAndLeaseTest {

    static RedisServer redis;

    @ApplicationScoped
    public static class Leases {
        @Locked(value = "fixed", leaseTime = "10s")
        public long fixedLease() {
            return (Long) redis.command("PTTL", "padlock:fixed");
        }

        @Locked("watched")
        public long watchdog() {
            return (Long) redis.command("PTTL", "padlock:watched");
        }

        @Locked(value = "overridden", leaseTime = "10s")
        public long overridden() {
            return (Long) redis.command("PTTL", "padlock:overridden");
        }
    }

    @Test
    void aFixedLeaseBoundsTheKeysLifetime(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Leases.class)) {
            assertThat(app.bean(Leases.class).fixedLease()).isBetween(1L, 10_000L);
        }
    }

    @Test
    void theWatchdogLeaseIsTheConfiguredWatchdogTimeout(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", server.uri(), "padlock.watchdog-timeout", "4s"), Leases.class)) {
            assertThat(app.bean(Leases.class).watchdog()).isBetween(1L, 4_000L);
        }
    }

    @Test
    void perLockConfigBeatsTheAnnotation(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", server.uri(), "padlock.locks.\"overridden\".lease-time", "3s"),
                Leases.class)) {
            assertThat(app.bean(Leases.class).overridden()).isBetween(1L, 3_000L);
        }
    }
}
