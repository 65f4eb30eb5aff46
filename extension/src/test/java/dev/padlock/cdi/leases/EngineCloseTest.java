package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An application that stops while one of its calls still holds a lock must stop renewing it, also when the
 * Redisson client is the application's own and outlives it: otherwise the lock is renewed for as long as the JVM
 * runs. It then lapses with its lease.
 */
@ExtendWith(RedisExtension.class)
class EngineCloseTest {

    static RedissonClient shared;

    @ApplicationScoped
    public static class SharedClient {
        @jakarta.enterprise.inject.Produces
        @ApplicationScoped
        RedissonClient client() {
            return shared; // outlives the application, as a client from JNDI or a shared module would
        }
    }

    @ApplicationScoped
    public static class Job {
        @Locked("closing")
        public String hold(CountDownLatch release) throws InterruptedException {
            release.await(30, TimeUnit.SECONDS);
            return "done";
        }
    }

    @Test
    void stoppingTheApplicationStopsItsRenewals(RedisServer redis) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        config.setLockWatchdogTimeout(1_500);
        shared = Redisson.create(config);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> call;
        try {
            try (Deployment app = Deployment.start(Map.of(), SharedClient.class, Job.class)) {
                Job job = app.bean(Job.class);
                call = CompletableFuture.supplyAsync(() -> {
                    try {
                        return job.hold(release);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                for (int i = 0; i < 100 && (Long) redis.command("EXISTS", "padlock:closing") == 0; i++) {
                    Thread.sleep(20);
                }
                Thread.sleep(2_000);
                assertThat(redis.command("EXISTS", "padlock:closing"))
                        .as("control: renewed past its lease while the application runs")
                        .isEqualTo(1L);
            }
            long exists = 1;
            for (int i = 0; i < 100 && exists == 1; i++) {
                Thread.sleep(50);
                exists = (Long) redis.command("EXISTS", "padlock:closing");
            }
            assertThat(exists).as("lapsed after the application stopped").isZero();
        } finally {
            release.countDown();
            shared.shutdown();
        }
        call.handle((v, e) -> v).get(30, TimeUnit.SECONDS);
    }
}
