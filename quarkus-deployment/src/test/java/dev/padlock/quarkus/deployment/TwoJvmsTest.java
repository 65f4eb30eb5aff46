package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.quarkus.test.ProdBuildResults;
import io.quarkus.test.ProdModeTestResults;
import io.quarkus.test.QuarkusProdModeTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * A packaged Quarkus application whose only Padlock dependency is padlock-quarkus, run as two JVMs at once
 * against one Redis: a racy read-modify-write of a Redis counter under @Locked loses no update; the same
 * work without the lock does (the control that shows the check can fail).
 */
class TwoJvmsTest {

    static final int INCREMENTS = 1000;

    @QuarkusMain
    public static class CounterApp implements QuarkusApplication {
        @Inject
        Counter counter;

        @Inject
        RedissonClient redisson;

        @Override
        public int run(String... args) throws Exception {
            boolean locked = args[0].equals("locked");
            // Both JVMs start counting together, so their calls really overlap.
            redisson.getAtomicLong("cross-jvm:ready").incrementAndGet();
            while (!redisson.getBucket("cross-jvm:go", StringCodec.INSTANCE).isExists()) {
                Thread.sleep(10);
            }
            for (int i = 0; i < INCREMENTS; i++) {
                if (locked) {
                    counter.lockedIncrement();
                } else {
                    counter.increment();
                }
            }
            return 0;
        }
    }

    @ApplicationScoped
    public static class Counter {
        @Inject
        RedissonClient redisson;

        @Locked(value = "cross-jvm", waitTime = "60s")
        public void lockedIncrement() {
            increment();
        }

        public void increment() {
            RBucket<String> count = redisson.getBucket("cross-jvm:count", StringCodec.INSTANCE);
            String value = count.get();
            count.set(String.valueOf(value == null ? 1 : Integer.parseInt(value) + 1));
        }
    }

    @RegisterExtension
    static final QuarkusProdModeTest build = new QuarkusProdModeTest()
            .withApplicationRoot(jar -> jar.addClasses(CounterApp.class, Counter.class))
            .setApplicationName("padlock-two-jvms")
            // This module's tests have quarkus-micrometer (MicrometerOnQuarkusTest), whose build steps add beans of
            // it and of the HTTP server to every application: the packaged one gets their jars too, on a free port.
            .setForcedDependencies(List.of(
                    Dependency.of("io.quarkus", "quarkus-micrometer", Version.getVersion()),
                    Dependency.of("io.quarkus", "quarkus-vertx-http", Version.getVersion())))
            .overrideConfigKey("quarkus.http.port", "0")
            .setRun(false);

    @ProdBuildResults
    ProdModeTestResults results;

    static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        redis = Redis.startServer();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private long runTwoJvms(String mode) throws Exception {
        redis.flushAll();
        Path jar = results.getBuiltArtifactPath();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Process> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                File log = jar.getParent().resolve(mode + "-" + i + ".log").toFile();
                jvms.add(
                        new ProcessBuilder(java, "-Dpadlock.redis.address=" + redis.uri(), "-jar", jar.toString(), mode)
                                .redirectErrorStream(true)
                                .redirectOutput(log)
                                .start());
            }
            for (int waited = 0; !"2".equals(String.valueOf(redis.command("GET", "cross-jvm:ready"))); waited++) {
                assertThat(waited).as("both JVMs ready within 60 s").isLessThan(600);
                assertThat(jvms).allMatch(Process::isAlive);
                Thread.sleep(100);
            }
            redis.command("SET", "cross-jvm:go", "1");
            for (Process jvm : jvms) {
                assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).as("JVM finished").isTrue();
                assertThat(jvm.exitValue()).isZero();
            }
        } finally {
            jvms.forEach(Process::destroyForcibly);
        }
        return Long.parseLong(String.valueOf(redis.command("GET", "cross-jvm:count")));
    }

    @Test
    void twoJvmsNeverLoseAnUpdateUnderTheLock() throws Exception {
        assertThat(runTwoJvms("locked")).isEqualTo(2L * INCREMENTS);
        assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
    }

    @Test
    void withoutTheLockTheSameWorkLosesUpdates() throws Exception {
        assertThat(runTwoJvms("unlocked")).isLessThan(2L * INCREMENTS);
    }
}
