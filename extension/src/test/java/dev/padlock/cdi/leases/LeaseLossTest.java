package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * No silent lease loss: a lock lost while its method runs is reported by a {@code LockLost} event, one WARN line
 * and the JMX counter; with {@code on-lease-lost=throw} the call also fails after the method. Each scenario has a
 * control in which nothing is lost and nothing is reported, so the reports are not noise.
 */
@ExtendWith(RedisExtension.class)
public class LeaseLossTest {

    @ApplicationScoped
    public static class Losses {
        private final List<LockLost> seen = new CopyOnWriteArrayList<>();

        void record(@Observes LockLost loss) {
            seen.add(loss);
        }

        public List<LockLost> seen() {
            return seen;
        }
    }

    @ApplicationScoped
    public static class Work {
        private final AtomicInteger bodies = new AtomicInteger();

        public int bodies() {
            return bodies.get();
        }

        @Locked(value = "short", leaseTime = "200ms")
        public String overrun(long millis) throws InterruptedException {
            bodies.incrementAndGet();
            Thread.sleep(millis);
            return "done";
        }

        @Locked(value = "strict", leaseTime = "200ms")
        public String strict(long millis, boolean fail) throws InterruptedException {
            bodies.incrementAndGet();
            Thread.sleep(millis);
            if (fail) {
                throw new IllegalStateException("the method's own failure");
            }
            return "done";
        }

        @Locked("held")
        public String holdUntil(CountDownLatch done) throws InterruptedException {
            bodies.incrementAndGet();
            done.await(30, TimeUnit.SECONDS);
            return "done";
        }

        @Locked(value = "fixed", leaseTime = "30s")
        public String holdFixedUntil(CountDownLatch done) throws InterruptedException {
            return holdUntilInner(done);
        }

        private String holdUntilInner(CountDownLatch done) throws InterruptedException {
            done.await(30, TimeUnit.SECONDS);
            return "done";
        }
    }

    private static Map<String, String> config(RedisServer redis) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", redis.uri());
        config.put("padlock.locks.\"strict\".on-lease-lost", "throw");
        return config;
    }

    @Test
    void aFixedLeaseThatRunsOutIsReportedWhenItEnds(RedisServer redis) throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (Deployment app = Deployment.start(config(redis), Work.class, Losses.class);
                Capture capture = Capture.warnings(warnings)) {
            Work work = app.bean(Work.class);
            Losses losses = app.bean(Losses.class);

            assertThat(work.overrun(0)).isEqualTo("done");
            assertThat(losses.seen())
                    .as("control: released within its lease, nothing lost")
                    .isEmpty();
            assertThat(warnings).isEmpty();

            assertThat(work.overrun(600))
                    .as("the default policy reports and returns")
                    .isEqualTo("done");
            assertThat(losses.seen()).singleElement().satisfies(loss -> {
                assertThat(loss.lockKey()).isEqualTo("padlock:short");
                assertThat(loss.method()).contains(Work.class.getName() + "#overrun(long)");
                assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.DEADLINE);
            });
            assertThat(warnings)
                    .singleElement()
                    .asString()
                    .contains("padlock:short", "#overrun(long)", "outlived its lease", "lease-time");
            assertThat(app.bean(PadlockEngine.class).metrics().getLocksLost()).isEqualTo(1);
            assertThat(ManagementFactory.getPlatformMBeanServer()
                            .getAttribute(new ObjectName("dev.padlock:type=Padlock,name=padlock"), "LocksLost"))
                    .as("the counter over JMX")
                    .isEqualTo(1L);
        }
    }

    @Test
    void throwPolicyFailsTheCallAfterTheMethodRan(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(config(redis), Work.class, Losses.class)) {
            Work work = app.bean(Work.class);

            assertThat(work.strict(0, false)).as("control").isEqualTo("done");

            Throwable lost = catchThrowable(() -> work.strict(600, false));
            assertThat(lost)
                    .isInstanceOf(LockLostException.class)
                    .hasMessageContaining("padlock:strict")
                    .hasMessageContaining("outlived its lease");
            assertThat(((LockLostException) lost).getLoss().detectedBy()).isEqualTo(LockLost.Detection.DEADLINE);
            assertThat(work.bodies())
                    .as("the method ran; the exception comes after it")
                    .isEqualTo(2);

            Throwable own = catchThrowable(() -> work.strict(600, true));
            assertThat(own)
                    .as("the method's own exception wins; the loss rides along")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("the method's own failure");
            assertThat(own.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
            assertThat(app.bean(Losses.class).seen()).hasSize(2);
        }
    }

    @Test
    void aRenewalFindsTheLockGoneWhileTheMethodStillRuns(RedisServer redis) throws Exception {
        Map<String, String> config = config(redis);
        config.put("padlock.watchdog-timeout", "1200ms");
        try (Deployment app = Deployment.start(config, Work.class, Losses.class)) {
            Work work = app.bean(Work.class);
            Losses losses = app.bean(Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> uncheck(() -> work.holdUntil(done)));
            try {
                awaitKey(redis, "padlock:held");
                Thread.sleep(1_300);
                assertThat(losses.seen())
                        .as("control: renewed past its lease, nothing lost")
                        .isEmpty();
                assertThat(redis.command("EXISTS", "padlock:held")).isEqualTo(1L);

                // as a FLUSHALL or an eviction would (a restart is seen sooner: RestartSeenAtReconnectTest)
                redis.command("DEL", "padlock:held");
                for (int i = 0; i < 200 && losses.seen().isEmpty(); i++) {
                    Thread.sleep(50);
                }
                assertThat(call)
                        .as("found while the method runs, not at its end")
                        .isNotDone();
                assertThat(losses.seen()).singleElement().satisfies(loss -> {
                    assertThat(loss.lockKey()).isEqualTo("padlock:held");
                    assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.RENEWAL);
                });
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(losses.seen()).as("reported once, not again at release").hasSize(1);
        }
    }

    @Test
    void aReleaseThatCannotReachRedisIsReportedAsUnconfirmed(RedisServer redis, @TempDir Path dir) throws Exception {
        // Short Redis timeouts, so the failed release gives up quickly.
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(
                yaml,
                "singleServerConfig:\n  address: \"" + redis.uri() + "\"\n  timeout: 300\n  connectTimeout: 300\n"
                        + "  retryAttempts: 0\n");
        Map<String, String> config = Map.of("padlock.redis.config-file", yaml.toString());
        try (Deployment app = Deployment.start(config, Work.class, Losses.class)) {
            Work work = app.bean(Work.class);
            Losses losses = app.bean(Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            done.countDown();
            assertThat(work.holdFixedUntil(done)).isEqualTo("done");
            assertThat(losses.seen()).as("control: released, nothing lost").isEmpty();

            CountDownLatch later = new CountDownLatch(1);
            CompletableFuture<String> call =
                    CompletableFuture.supplyAsync(() -> uncheck(() -> work.holdFixedUntil(later)));
            awaitKey(redis, "padlock:fixed");
            redis.stop();
            try {
                later.countDown();
                assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
                assertThat(losses.seen()).singleElement().satisfies(loss -> {
                    assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.UNCONFIRMED);
                    assertThat(loss.cause()).isNotNull();
                });
            } finally {
                redis.start();
            }
        }
    }

    private static void awaitKey(RedisServer redis, String key) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (Long.valueOf(1).equals(redis.command("EXISTS", key))) {
                return;
            }
            Thread.sleep(25);
        }
        throw new AssertionError(key + " was never taken");
    }

    interface Body<T> {
        T run() throws Exception;
    }

    private static <T> T uncheck(Body<T> body) {
        try {
            return body.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Collects the WARN lines Padlock logs through java.util.logging (System.Logger's default). */
    public static final class Capture extends Handler implements AutoCloseable {
        private final Logger logger = Logger.getLogger("dev.padlock");
        private final List<String> lines;

        private Capture(List<String> lines) {
            this.lines = lines;
            logger.addHandler(this);
        }

        public static Capture warnings(List<String> lines) {
            return new Capture(lines);
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                lines.add(record.getMessage());
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
