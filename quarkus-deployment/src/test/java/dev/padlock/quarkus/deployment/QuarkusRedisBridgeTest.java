package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/** quarkus.redis.hosts set and padlock.redis.* not: Padlock uses that Redis and Dev Services start nothing. */
class QuarkusRedisBridgeTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Job.class, TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", TestRedis.uri() + "/0")
            .setLogRecordPredicate(r ->
                    r.getLoggerName().startsWith("dev.padlock") && r.getLevel().intValue() >= Level.INFO.intValue())
            .assertLogRecords(
                    records -> assertThat(records).noneMatch(r -> r.getMessage().contains("Dev Services started")));

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("bridged")
        public String addressWhileHeld() {
            return redisson.getLock("padlock:bridged").isLocked()
                    ? redisson.getConfig().useSingleServer().getAddress()
                    : "not held";
        }
    }

    @Inject
    Job job;

    @Test
    void locksOnTheQuarkusRedisHost() {
        assertThat(job.addressWhileHeld()).isEqualTo(TestRedis.uri());
    }
}
