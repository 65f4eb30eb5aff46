package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisCluster;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Redis Cluster failover under a held lock: application A holds a key (watchdog) while the master of the key's slot
 * is SIGKILLed and the cluster promotes its replica; application B keeps trying to take the same key. The rule is the
 * one {@link SentinelFailoverTest} checks: A keeps its lock until its body returns, or hears of its loss
 * ({@link LockLost}) before B enters, never after. Afterwards, calls on keys of every slot range, the failed-over one
 * included, work. Times are taken on this JVM's monotonic clock and printed.
 */
class ClusterFailoverTest {

    static final String KEY = "k";
    static final String REDIS_KEY = "padlock:cluster-failover:" + KEY;

    /** Monotonic times: A's body began and ended, A heard of its loss, B entered. */
    static final Map<String, Long> TIMES = new ConcurrentHashMap<>();

    static final Map<String, LockLost.Detection> DETECTED = new ConcurrentHashMap<>();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "cluster-failover", key = "{0}", waitTime = "10s")
        public String hold(String key, CountDownLatch started, CountDownLatch release) throws InterruptedException {
            TIMES.put("bodyStart", System.nanoTime());
            started.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } finally {
                TIMES.put("bodyEnd", System.nanoTime());
            }
            return "held";
        }

        @Locked(value = "cluster-failover", key = "{0}", waitTime = "1s")
        public String enter(String key) {
            TIMES.putIfAbsent("entered", System.nanoTime());
            return "entered";
        }

        @Locked(value = "cluster-after", key = "{0}", waitTime = "10s")
        public String call(String key) {
            return key;
        }
    }

    @ApplicationScoped
    public static class Losses {
        void record(@Observes LockLost loss) {
            if (loss.lockKey().equals(REDIS_KEY) && TIMES.putIfAbsent("lossSeen", System.nanoTime()) == null) {
                DETECTED.put("loss", loss.detectedBy());
            }
        }
    }

    @Test
    void theHolderKeepsItsLockAcrossThePromotionOrHearsOfItsLossFirstAndCallsWorkAfterwards() throws Exception {
        TIMES.clear();
        DETECTED.clear();
        long setUp = System.nanoTime();
        try (RedisCluster cluster = Redis.startCluster(3, 1);
                Deployment holderApp = Deployment.start(config(cluster), Work.class, Losses.class);
                Deployment otherApp = Deployment.start("other", config(cluster), Work.class)) {
            System.out.printf(
                    "ClusterFailoverTest: cluster and both applications up in %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - setUp));
            Work holder = holderApp.bean(Work.class);
            Work other = otherApp.bean(Work.class);
            RedisServer master = Promotions.clusterMasterOf(cluster, REDIS_KEY);
            RedisServer replica = Promotions.clusterReplicaOf(cluster, master);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean stopTrying = new AtomicBoolean();
            AtomicInteger notAcquired = new AtomicInteger();
            AtomicInteger errors = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<String> held = threads.submit(() -> {
                    try {
                        return holder.hold(KEY, started, release);
                    } finally {
                        TIMES.put("returned", System.nanoTime());
                    }
                });
                Waits.await(started);
                assertThat(master.command("EXISTS", REDIS_KEY))
                        .as("the lock key on the master of its slot, " + master)
                        .isEqualTo(1L);
                // A healthy replica: it has the key, with the expiry the master gave it, before the master dies. (SCAN,
                // as a cluster replica answers a key's command with MOVED.)
                Waits.until(
                        () -> String.valueOf(replica.command("SCAN", "0", "MATCH", REDIS_KEY, "COUNT", "10000"))
                                .contains(REDIS_KEY),
                        "the replica to have " + REDIS_KEY);
                Future<?> trying = threads.submit(() -> {
                    while (!stopTrying.get()) {
                        try {
                            other.enter(KEY);
                            return;
                        } catch (LockNotAcquiredException e) {
                            notAcquired.incrementAndGet();
                        } catch (RuntimeException e) {
                            // the slot's master is gone and the client has not seen the promotion yet: try again
                            errors.incrementAndGet();
                            Promotions.sleep(50);
                        }
                    }
                });
                Promotions.sleep(300); // B waits for the key before the kill
                long killed = System.nanoTime();
                master.kill();
                Promotions.awaitClusterPromotion(replica);
                long promoted = System.nanoTime();
                // Long enough for Redisson's topology scan (every 5 s) to find the new master and a renewal to reach
                // it.
                Promotions.sleep(6000);
                release.countDown();
                String result;
                try {
                    result = held.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    result = "failed: " + e.getCause();
                }
                trying.get(60, TimeUnit.SECONDS);

                Long loss = TIMES.get("lossSeen");
                Long entered = TIMES.get("entered");
                long bodyEnd = TIMES.get("bodyEnd");
                System.out.printf(
                        "ClusterFailoverTest: promotion seen %d ms after the kill; A's loss %s; A's body ended at %d"
                                + " ms, its call returned at %d ms with %s; B entered at %s ms (%d not acquired, %d"
                                + " errors before)%n",
                        millis(promoted - killed),
                        loss == null ? "not reported" : DETECTED.get("loss") + " at " + millis(loss - killed) + " ms",
                        millis(bodyEnd - killed),
                        millis(TIMES.get("returned") - killed),
                        result,
                        entered == null ? null : millis(entered - killed),
                        notAcquired.get(),
                        errors.get());
                assertThat(entered).as("B entered at last").isNotNull();
                if (loss == null) {
                    assertThat(entered - bodyEnd)
                            .as("B entered after A's body ended, as A heard of no loss")
                            .isPositive();
                } else {
                    assertThat(entered - loss)
                            .as("B entered after A heard of its loss")
                            .isPositive();
                }

                // Afterwards every slot range answers, the promoted replica's included, from both applications.
                long after = System.nanoTime();
                int calls = 0;
                int onThePromoted = 0;
                for (int i = 0; i < 30; i++) {
                    if (Promotions.clusterMasterOf(cluster, "padlock:cluster-after:after-" + i) == replica) {
                        onThePromoted++;
                    }
                    assertThat(holder.call("after-" + i)).isEqualTo("after-" + i);
                    assertThat(other.call("after-" + i)).isEqualTo("after-" + i);
                    calls += 2;
                }
                assertThat(holder.call(KEY)).isEqualTo(KEY);
                System.out.printf(
                        "ClusterFailoverTest: %d calls afterwards took %d ms, %d of the 30 keys on the promoted"
                                + " replica%n",
                        calls + 1, millis(System.nanoTime() - after), onThePromoted);
                assertThat(onThePromoted)
                        .as("keys served by the promoted replica")
                        .isPositive();
            } finally {
                release.countDown();
                stopTrying.set(true);
                threads.shutdownNow();
                threads.awaitTermination(30, TimeUnit.SECONDS);
            }
        }
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static Map<String, String> config(RedisCluster cluster) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.mode", "cluster");
        config.put("padlock.redis.nodes", String.join(",", cluster.nodeUris()));
        config.put("padlock.watchdog-timeout", "6s");
        return config;
    }
}
