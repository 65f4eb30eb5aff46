package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The address comes from {@code quarkus.redis.hosts}, with a password in it that the harness Redis (it has none)
 * refuses: the failure of a locked call names the cause and that key, the one the user set, not Padlock's own
 * {@code padlock.redis.address}; and it does not show the password.
 */
class ConnectionFailureOnQuarkusTest {

    static final String SECRET = "h0sts-S3cret";

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Job.class, TestRedis.class))
            .overrideConfigKey(
                    "quarkus.redis.hosts", TestRedis.uri().replace("redis://", "redis://:" + SECRET + "@") + "/0");

    @ApplicationScoped
    public static class Job {
        @Locked(value = "bridged", waitTime = "0")
        public String run() {
            return "ran";
        }
    }

    @Inject
    Job job;

    @Test
    void aLockedCallNamesTheCauseAndQuarkusRedisHosts() {
        Throwable thrown = catchThrowable(job::run);

        assertThat(thrown)
                .isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining("no connection to Redis could be made: a password was sent, but the Redis"
                        + " server has none for its default user")
                .hasMessageContaining("Remove the user info in quarkus.redis.hosts")
                .hasMessageNotContaining("padlock.redis.address");
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        thrown.printStackTrace(new PrintStream(trace, true, StandardCharsets.UTF_8));
        assertThat(trace.toString(StandardCharsets.UTF_8)).doesNotContain(SECRET);
    }
}
