package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.api.RedissonClient;

/**
 * Which watchdog timeout a watchdog-mode lock is taken with: {@code padlock.watchdog-timeout} when set, else the
 * config file's {@code lockWatchdogTimeout}. The lock's PTTL, read while the method runs (right after it was
 * taken, before any renewal), shows the lease in use: the file says 7 s, the key 11 s, the default is 30 s.
 */
@ExtendWith(RedisExtension.class)
class WatchdogPrecedenceTest {

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("watchdog-precedence")
        public long leaseLeft() {
            return redisson.getKeys().remainTimeToLive("padlock:watchdog-precedence");
        }
    }

    private static Path file(Path dir, RedisServer redis) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(yaml, "lockWatchdogTimeout: 7000\nsingleServerConfig:\n  address: \"" + redis.uri() + "\"\n");
        return yaml;
    }

    @Test
    void theFilesWatchdogTimeoutAppliesWhenTheKeyIsNotSet(RedisServer server, @TempDir Path dir) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.config-file", file(dir, server).toString()), Job.class)) {
            assertThat(app.bean(Job.class).leaseLeft()).isBetween(1L, 7_000L);
        }
    }

    @Test
    void theKeyWinsOverTheFile(RedisServer server, @TempDir Path dir) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.config-file", file(dir, server).toString(), "padlock.watchdog-timeout", "11s"),
                Job.class)) {
            assertThat(app.bean(Job.class).leaseLeft()).isBetween(7_001L, 11_000L);
        }
    }
}
