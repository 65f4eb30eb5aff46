package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An application that produces its own RedissonClient keeps it: Padlock's is only a default bean. Padlock's
 * own address points at a closed port, so locking through Padlock's client would fail.
 */
class ApplicationClientOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(ClientProducer.class, Job.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", "redis://127.0.0.1:1")
            .overrideConfigKey("padlock.redis.password", "s3cr3t-Pa55")
            .overrideConfigKey("app.redis", TestRedis.uri())
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"))
            // Padlock's keys do not apply to the application's client, and start-up says which, without values.
            .assertLogRecords(records -> assertThat(records)
                    .map(r -> r.getLevel() + " " + r.getMessage())
                    .filteredOn(line -> line.contains("ignored"))
                    .singleElement()
                    .asString()
                    .startsWith("INFO Padlock locks through the application's own RedissonClient, so")
                    .contains("padlock.redis.address", "padlock.redis.password")
                    .doesNotContain("s3cr3t-Pa55", "127.0.0.1"));

    @ApplicationScoped
    public static class ClientProducer {
        @Produces
        @ApplicationScoped
        RedissonClient client(@org.eclipse.microprofile.config.inject.ConfigProperty(name = "app.redis") String uri) {
            Config config = new Config();
            config.useSingleServer().setAddress(uri);
            return Redisson.create(config);
        }

        void close(@Disposes RedissonClient client) {
            client.shutdown();
        }
    }

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("own-client")
        public boolean heldWhileRunning() {
            return redisson.getLock("padlock:own-client").isLocked();
        }
    }

    @Inject
    Job job;

    @Test
    void locksThroughTheApplicationsClient() {
        assertThat(job.heldWhileRunning()).isTrue();
    }
}
