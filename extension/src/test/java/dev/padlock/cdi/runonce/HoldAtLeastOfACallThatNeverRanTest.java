package dev.padlock.cdi.runonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisMonitor;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A hold-at-least keeps the key of a call whose body ran, so that an instance whose scheduler fires a little later
 * skips the occurrence (engine review 3, F-2). A call that took a key without running its body must not keep it: the
 * occurrence would then be run by nobody, while the instance that failed holds everyone else out. Two such calls:
 * an acquisition that got no answer (undone, as without a hold-at-least), and the late acquisition of a caller that
 * was interrupted while it waited (released, as without one). Each beside its control, the same job without a
 * hold-at-least.
 */
@ExtendWith(RedisExtension.class)
class HoldAtLeastOfACallThatNeverRanTest {

    static final AtomicInteger RUNS = new AtomicInteger();

    @ApplicationScoped
    public static class Jobs {
        @Locked(value = "never-ran-job", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast = "20s")
        public String heldAtLeast() {
            RUNS.incrementAndGet();
            return "ran";
        }

        @Locked(value = "never-ran-job-control", waitTime = "0", onFailure = OnFailure.SKIP)
        public String control() {
            RUNS.incrementAndGet();
            return "ran";
        }

        @Locked(value = "never-ran-warm-up")
        public String warmUp() {
            return "ran";
        }

        @Locked(value = "never-ran-wait", key = "{id}", waitTime = "10s", holdAtLeast = "20s")
        public String waitHeldAtLeast(String id) {
            return "ran";
        }

        @Locked(value = "never-ran-wait-control", key = "{id}", waitTime = "10s")
        public String waitControl(String id) {
            return "ran";
        }

        @Locked(value = "never-ran-wait", key = "{id}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String tryOnce(String id) {
            return "ran";
        }

        @Locked(value = "never-ran-wait-control", key = "{id}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String tryOnceControl(String id) {
            return "ran";
        }
    }

    @BeforeEach
    void reset(RedisServer redis) {
        redis.flushAll();
        RUNS.set(0);
    }

    @Test
    void anInDoubtAcquisitionOfAJobWithAHoldAtLeastIsUndoneAndTheOccurrenceRuns(RedisServer redis, @TempDir Path dir)
            throws Exception {
        assertTheOccurrenceRunsAfterAnInDoubtAcquisition(redis, dir, "padlock:never-ran-job", Jobs::heldAtLeast);
    }

    @Test
    void controlWithoutHoldAtLeastTheInDoubtAcquisitionIsUndone(RedisServer redis, @TempDir Path dir) throws Exception {
        assertTheOccurrenceRunsAfterAnInDoubtAcquisition(redis, dir, "padlock:never-ran-job-control", Jobs::control);
    }

    @Test
    void aLateAcquisitionOfAnInterruptedCallerIsReleasedAlsoWithAHoldAtLeast(RedisServer redis) throws Exception {
        assertTheNextCallerGetsTheKeyAfterAnInterruptedWait(
                redis, "padlock:never-ran-wait:late", Jobs::waitHeldAtLeast, Jobs::tryOnce);
    }

    @Test
    void controlWithoutHoldAtLeastTheLateAcquisitionIsReleased(RedisServer redis) throws Exception {
        assertTheNextCallerGetsTheKeyAfterAnInterruptedWait(
                redis, "padlock:never-ran-wait-control:late", Jobs::waitControl, Jobs::tryOnceControl);
    }

    /**
     * Instance 1's client waits 1 s for answers and sends the lock script once; Redis is paused while instance 1
     * fires, so its call fails in doubt, and the script runs when the pause ends. Instance 2 fires once the pause is
     * over: it must run the occurrence.
     */
    private static void assertTheOccurrenceRunsAfterAnInDoubtAcquisition(
            RedisServer redis, Path dir, String key, Function<Jobs, String> job) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(
                yaml, "singleServerConfig:\n  address: \"" + redis.uri() + "\"\n  timeout: 1000\n  retryAttempts: 0\n");
        try (Deployment first = Deployment.start(
                        "instance-1", Map.of("padlock.redis.config-file", yaml.toString()), Jobs.class);
                Deployment second =
                        Deployment.start("instance-2", Map.of("padlock.redis.address", redis.uri()), Jobs.class);
                RedisMonitor monitor = redis.monitor()) {
            // instance 1 has answered before: its client is connected, and Redis knows the lock script
            assertThat(first.bean(Jobs.class).warmUp()).isEqualTo("ran");
            long paused = System.nanoTime();
            redis.command("CLIENT", "PAUSE", "2500", "WRITE");
            Throwable failed = catchThrowable(() -> job.apply(first.bean(Jobs.class)));
            assertThat(failed).as("no answer within 1 s").isInstanceOf(LockNotAcquiredException.class);

            // The pause ends, the script runs (taking the key), and the undo follows it.
            Thread.sleep(Math.max(0, 2_700 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - paused)));
            long exists = 1;
            for (int i = 0; i < 100 && exists == 1; i++) {
                Thread.sleep(50);
                exists = (Long) redis.command("EXISTS", key);
            }
            assertThat(monitor.sync())
                    .as("the in-doubt script ran when the pause ended: the key was taken")
                    .anyMatch(c -> c.fromScript()
                            && c.name().equals("hincrby")
                            && c.arg(1).equals(key));

            String second2 = job.apply(second.bean(Jobs.class));
            assertThat(second2)
                    .as(
                            "instance 2 returned %s, job runs %d, %s pttl %s",
                            second2, RUNS.get(), key, redis.command("PTTL", key))
                    .isEqualTo("ran");
            assertThat(RUNS).as("the occurrence ran once, on instance 2").hasValue(1);
        }
    }

    /**
     * Another application holds the key; the caller waits in Redis, is interrupted and fails; the holder leaves, so the
     * caller's acquisition, still under way in Redis, takes the key after the caller gave up. A caller that tries once
     * must then get the key.
     */
    private static void assertTheNextCallerGetsTheKeyAfterAnInterruptedWait(
            RedisServer redis,
            String key,
            BiFunction<Jobs, String, String> waiting,
            BiFunction<Jobs, String, String> tryOnce)
            throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient other = Redisson.create(config);
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Jobs.class);
                RedisMonitor monitor = redis.monitor()) {
            Jobs jobs = app.bean(Jobs.class);
            RLock held = other.getLock(key);
            held.lock();
            CompletableFuture<Throwable> caller = new CompletableFuture<>();
            Thread thread = new Thread(() -> caller.complete(catchThrowable(() -> waiting.apply(jobs, "late"))));
            thread.start();
            // the caller waits in Redis: subscribed to the key's channel
            Waits.until(
                    () -> ((Long) ((List<?>) redis.command("PUBSUB", "NUMSUB", "redisson_lock__channel:{" + key + "}"))
                                    .get(1))
                            > 0,
                    "the caller waiting in Redis");
            thread.interrupt();
            assertThat(caller.get(10, TimeUnit.SECONDS))
                    .as("the interrupted caller fails")
                    .isInstanceOf(LockNotAcquiredException.class);

            held.unlock();
            // the acquisition the caller left behind takes the key (owner ids of Padlock's calls are negative)
            Waits.until(
                    () -> monitor.sync().stream()
                            .anyMatch(c -> c.fromScript()
                                    && c.name().equals("hincrby")
                                    && c.arg(1).equals(key)
                                    && c.arg(2).contains(":-")),
                    "the late acquisition taking the key");

            String next = null;
            for (int i = 0; i < 100 && next == null; i++) {
                next = tryOnce.apply(jobs, "late");
                if (next == null) {
                    Thread.sleep(50);
                }
            }
            assertThat(next)
                    .as("next caller got %s, %s pttl %s", next, key, redis.command("PTTL", key))
                    .isEqualTo("ran");
        } finally {
            other.shutdown();
        }
    }
}
