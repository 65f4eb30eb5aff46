package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisCluster;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Padlock's renewal scripts run on a cluster too: each is routed by its lock's key, and the read lock's script
 * reaches its per-hold timeout keys, which share the lock's slot. Locks of either layout, with keys on several
 * slots, stay held for twice the watchdog timeout.
 */
@ExtendWith(RedisExtension.class)
class ClusterRenewalTest {

    static final long WATCHDOG_MILLIS = 1_200;

    @ApplicationScoped
    public static class Holders {
        @Locked(value = "c-exclusive", key = "{id}")
        public Object exclusive(String id, Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "c-read", key = "{id}", type = LockType.READ)
        public Object read(String id, Supplier<Object> body) {
            return body.get();
        }
    }

    private static long liveKeys(RedisCluster cluster, String pattern) {
        long live = 0;
        for (RedisServer master : cluster.masters()) {
            for (Object key : (List<?>) master.command("KEYS", pattern)) {
                if ((Long) master.command("PTTL", key.toString()) > 0) {
                    live++;
                }
            }
        }
        return live;
    }

    @Test
    void locksOnEverySlotStayHeldForTwiceTheWatchdogTimeout(RedisCluster cluster) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of(
                        "padlock.redis.mode",
                        "cluster",
                        "padlock.redis.nodes",
                        String.join(",", cluster.nodeUris()),
                        "padlock.watchdog-timeout",
                        WATCHDOG_MILLIS + "ms"),
                Holders.class)) {
            Holders holders = app.bean(Holders.class);
            String[] ids = {"a", "b", "c", "d", "{x}"};
            CountDownLatch entered = new CountDownLatch(2 * ids.length);
            CountDownLatch release = new CountDownLatch(1);
            Supplier<Object> body = () -> {
                entered.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "held";
            };
            ExecutorService pool = Executors.newFixedThreadPool(2 * ids.length);
            CompletableFuture<?>[] calls = new CompletableFuture<?>[2 * ids.length];
            for (int i = 0; i < ids.length; i++) {
                String id = ids[i];
                calls[2 * i] = CompletableFuture.supplyAsync(() -> holders.exclusive(id, body), pool);
                calls[2 * i + 1] = CompletableFuture.supplyAsync(() -> holders.read(id, body), pool);
            }
            try {
                assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
                Thread.sleep(2 * WATCHDOG_MILLIS + WATCHDOG_MILLIS / 2);

                assertThat(liveKeys(cluster, "padlock:c-exclusive:*")).isEqualTo(ids.length);
                assertThat(liveKeys(cluster, "padlock:c-read:*")).isEqualTo(ids.length);
                assertThat(liveKeys(cluster, "{padlock:c-read:*}:*:rwlock_timeout:1"))
                        .as("each reader's own timeout key")
                        .isEqualTo(ids.length);
            } finally {
                release.countDown();
                pool.shutdown();
            }
            CompletableFuture.allOf(calls).get(30, TimeUnit.SECONDS);
            assertThat(liveKeys(cluster, "padlock:*")).isZero();
        }
    }
}
