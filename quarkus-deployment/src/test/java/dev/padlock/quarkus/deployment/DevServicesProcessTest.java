package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * No padlock.redis.*, Dev Services pinned to a process ({@code quarkus.padlock.devservices.start=process}): they start a
 * local redis-server on a free port, and a lock is really taken on it.
 */
class DevServicesProcessTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Job.class))
            // the process branch, whether or not a container runtime answers on this machine
            .overrideConfigKey("quarkus.padlock.devservices.start", "process");

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("dev-services")
        public boolean heldWhileRunning() {
            return redisson.getLock("padlock:dev-services").isLocked();
        }
    }

    @Inject
    Job job;

    @ConfigProperty(name = "padlock.redis.address")
    String address;

    @Test
    void locksOnTheRedisDevServicesStarted() {
        assertThat(address).startsWith("redis://127.0.0.1:").doesNotEndWith(":6379");
        assertThat(job.heldWhileRunning()).isTrue();
    }
}
