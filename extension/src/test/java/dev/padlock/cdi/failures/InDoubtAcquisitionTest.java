package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock request whose answer never came (the client timed out while the server was paused) may still have taken
 * the key on the server. The call fails, and Padlock undoes what may have been taken with an owner-checked unlock,
 * so the key does not stay held for the whole lease.
 */
@ExtendWith(RedisExtension.class)
class InDoubtAcquisitionTest {

    @ApplicationScoped
    public static class Job {
        @Locked(value = "in-doubt", leaseTime = "60s", waitTime = "0")
        public String run() {
            return "ran";
        }
    }

    @Test
    void anUnansweredAcquisitionIsUndone(RedisServer redis, @TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        // Answers are awaited for 1 s; the lock script is sent once.
        Files.writeString(
                yaml, "singleServerConfig:\n  address: \"" + redis.uri() + "\"\n  timeout: 1000\n  retryAttempts: 0\n");
        try (Deployment app = Deployment.start(Map.of("padlock.redis.config-file", yaml.toString()), Job.class)) {
            Job job = app.bean(Job.class);
            assertThat(job.run()).as("control: answered, taken and released").isEqualTo("ran");

            long paused = System.nanoTime();
            redis.command("CLIENT", "PAUSE", "2500", "WRITE");
            Throwable failed = catchThrowable(job::run);

            assertThat(failed).isInstanceOf(LockNotAcquiredException.class);
            // While paused, the script waits on the server; when the pause ends it runs, and the undo after it.
            Thread.sleep(Math.max(0, 2_700 - (System.nanoTime() - paused) / 1_000_000));
            long exists = 1;
            for (int i = 0; i < 100 && exists == 1; i++) {
                Thread.sleep(50);
                exists = (Long) redis.command("EXISTS", "padlock:in-doubt");
            }
            assertThat(exists).as("the key is not left held for its 60 s lease").isZero();
            // The undo's answer passes the local turn on just after Redis deleted the key: allow for that moment.
            String next = null;
            for (int i = 0; i < 40 && next == null; i++) {
                try {
                    next = job.run();
                } catch (LockNotAcquiredException e) {
                    Thread.sleep(50);
                }
            }
            assertThat(next).as("and the next call gets it").isEqualTo("ran");
        }
    }
}
