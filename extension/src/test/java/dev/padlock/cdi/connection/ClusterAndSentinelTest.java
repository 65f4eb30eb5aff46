package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisCluster;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisSentinel;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** padlock.redis.mode=cluster and =sentinel lock for real against the harness's topologies. */
@ExtendWith(RedisExtension.class)
class ClusterAndSentinelTest {

    @ApplicationScoped
    public static class Stock {
        final AtomicInteger reserved = new AtomicInteger();

        @Locked(value = "stock", key = "{sku}")
        public int reserve(String sku) {
            return reserved.incrementAndGet();
        }

        @Locked(
                value = "stock",
                key = {"{from}", "{to}"})
        public int transfer(String from, String to) {
            return reserved.incrementAndGet();
        }
    }

    @Test
    void locksOnAClusterEvenWithBracesInTheKey(RedisCluster cluster) {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.mode", "cluster", "padlock.redis.nodes", String.join(",", cluster.nodeUris())),
                Stock.class)) {
            Stock stock = app.bean(Stock.class);
            // Unescaped, "{x}" would be a hash tag: the lock key and Redisson's channel {padlock:stock:{x}}
            // would hash to different slots and the unlock script would fail with CROSSSLOT.
            for (String sku : new String[] {"plain", "{x}", "a{b}c", "}{", "{}"}) {
                assertThat(stock.reserve(sku)).isPositive();
            }
            assertThat(stock.transfer("{left}", "right")).isPositive();
            // Redisson's unlock script leaves a short-lived "unlock latch" key (SET … PX) for retried unlocks: a
            // lock left held stays, a latch goes within moments.
            for (var master : cluster.masters()) {
                Object keys = master.command("DBSIZE");
                for (int i = 0; i < 100 && !Long.valueOf(0).equals(keys); i++) {
                    sleep(50);
                    keys = master.command("DBSIZE");
                }
                assertThat(keys).as("nothing left held on " + master).isEqualTo(0L);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void locksThroughSentinels(RedisSentinel sentinel) {
        try (Deployment app = Deployment.start(
                Map.of(
                        "padlock.redis.mode", "sentinel",
                        "padlock.redis.nodes", String.join(",", sentinel.sentinelUris()),
                        "padlock.redis.sentinel.master-name", sentinel.masterName()),
                Stock.class)) {
            assertThat(app.bean(Stock.class).reserve("A-1")).isEqualTo(1);
            assertThat(sentinel.master().command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }
}
