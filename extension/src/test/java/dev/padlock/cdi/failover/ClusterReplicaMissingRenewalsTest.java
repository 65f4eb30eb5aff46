package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisCluster;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ReplicationCut;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplicaMissingRenewalsTest} on Redis Cluster (3 masters with a replica each): the replica of the lock key's
 * master misses the holder's renewals, then that master dies and the cluster promotes the replica, whose copy of the
 * lock carries the acquisition's expiry. With replica confirmation the holder hears of its loss before the promoted
 * replica could grant the key; without it (the control) only after. A 6 s watchdog; the master is killed 1.4 s before
 * the replica's copy expires, and the cluster needs more than its 2 s node timeout to promote the replica.
 */
@Tag("firewall") // ReplicationCut: iptables and root, with -Pfirewall-tests
class ClusterReplicaMissingRenewalsTest {

    static final String REDIS_KEY = "padlock:cluster-missing:k";
    static final long LEASE_NANOS = TimeUnit.SECONDS.toNanos(6);
    static final AtomicLong LOSS_HEARD = new AtomicLong();
    static final AtomicLong ENTERED = new AtomicLong();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "cluster-missing", key = "{0}", waitTime = "1s")
        public String hold(String key, CountDownLatch started, CountDownLatch release) throws InterruptedException {
            started.countDown();
            release.await(60, TimeUnit.SECONDS);
            return "held";
        }

        @Locked(value = "cluster-missing", key = "{0}", waitTime = "1s")
        public String enter(String key) {
            ENTERED.compareAndSet(0, System.nanoTime());
            return "entered";
        }
    }

    @ApplicationScoped
    public static class Losses {
        void record(@Observes LockLost loss) {
            LOSS_HEARD.compareAndSet(0, System.nanoTime());
        }
    }

    @Test
    void theHolderHearsOfItsLossBeforeThePromotedReplicaCouldGrantTheKey() throws Exception {
        long[] outcome = run(true);
        assertThat(outcome[0]).as("the holder heard of its loss").isNotZero();
        assertThat(outcome[0] - outcome[1])
                .as("when the holder heard of its loss, relative to when the promoted replica could grant the key (ns)")
                .isNegative();
    }

    /** The control: renewals the master alone confirmed moved the deadline past the replica's expiry. */
    @Test
    void withoutReplicaConfirmationTheHolderHearsOfItsLossLate() throws Exception {
        long[] outcome = run(false);
        assertThat(outcome[0] == 0 || outcome[0] - outcome[1] > 0)
                .as("the holder heard of its loss only after the promoted replica could grant the key, or never")
                .isTrue();
    }

    /** Monotonic times: when the holder heard of its loss (0: never), and when the promoted replica could grant. */
    private static long[] run(boolean confirm) throws Exception {
        LOSS_HEARD.set(0);
        ENTERED.set(0);
        try (RedisCluster cluster = Redis.startCluster(3, 1)) {
            Map<String, String> config = new HashMap<>();
            config.put("padlock.redis.mode", "cluster");
            config.put("padlock.redis.nodes", String.join(",", cluster.nodeUris()));
            config.put("padlock.watchdog-timeout", "6s");
            config.put("padlock.redis.replica-confirmation", String.valueOf(confirm));
            try (Deployment holderApp = Deployment.start(config, Work.class, Losses.class);
                    Deployment otherApp = Deployment.start("other", config, Work.class)) {
                Work holder = holderApp.bean(Work.class);
                Work other = otherApp.bean(Work.class);
                RedisServer master = Promotions.clusterMasterOf(cluster, REDIS_KEY);
                RedisServer replica = Promotions.clusterReplicaOf(cluster, master);
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                CompletableFuture<String> holding;
                long seen;
                long killed;
                long promoted;
                try {
                    holding = CompletableFuture.supplyAsync(() -> {
                        try {
                            return holder.hold("k", started, release);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    assertThat(started.await(30, TimeUnit.SECONDS))
                            .as("the holder got the lock")
                            .isTrue();
                    // the acquisition ran before this: the replica's copy expires no later than a lease from now
                    seen = System.nanoTime();
                    // (SCAN: a cluster replica answers a key's command with MOVED)
                    Waits.until(
                            () -> String.valueOf(replica.command("SCAN", "0", "MATCH", REDIS_KEY, "COUNT", "10000"))
                                    .contains(REDIS_KEY),
                            "the replica to have " + REDIS_KEY);
                    try (ReplicationCut cut = ReplicationCut.start(master, replica)) {
                        Promotions.sleepUntil(seen + LEASE_NANOS - TimeUnit.MILLISECONDS.toNanos(1_400));
                        master.kill();
                        killed = System.nanoTime();
                        Promotions.awaitClusterPromotion(replica);
                        promoted = System.nanoTime();
                    }
                    Promotions.enterWhenFree(() -> other.enter("k"), "the key");
                } finally {
                    release.countDown();
                }
                holding.handle((value, failure) -> value).get(60, TimeUnit.SECONDS);
                long couldGrant = Math.max(promoted, seen + LEASE_NANOS);
                long lossHeard = LOSS_HEARD.get();
                System.out.printf(
                        "ClusterReplicaMissingRenewalsTest (confirmation %s): replica promoted %d ms after the kill;"
                                + " the other application entered %d ms after the promotion; the holder heard of its"
                                + " loss %s%n",
                        confirm ? "on" : "off",
                        (promoted - killed) / 1_000_000,
                        (ENTERED.get() - promoted) / 1_000_000,
                        lossHeard == 0
                                ? "never"
                                : Math.abs(lossHeard - couldGrant) / 1_000_000 + " ms "
                                        + (lossHeard < couldGrant ? "before" : "after")
                                        + " the promoted replica could grant the key");
                return new long[] {lossHeard, couldGrant};
            }
        }
    }
}
