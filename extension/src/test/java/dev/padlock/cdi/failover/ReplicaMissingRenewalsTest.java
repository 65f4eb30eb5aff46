package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockLost;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import dev.padlock.testing.ReplicationCut;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A replica that stops receiving the master's writes (its link still up, so the sentinels still promote it) while a
 * lock is held: the holder's renewals reach the master only. Then the master dies and that replica, which still has
 * the acquisition's expiry, is promoted. With replica confirmation, no renewal was confirmed, so the holder's deadline
 * stayed where the acquisition put it, and the holder hears of its loss before the promoted replica lets another
 * application in. Without it (the control), the renewals the master alone confirmed moved the deadline past the
 * replica's expiry: the other application enters first and the holder hears of its loss late.
 *
 * <p>All times are this JVM's monotonic clock; the lease is a 6 s watchdog (renewed every 2 s). The master is killed
 * 1.4 s before the replica's copy of the lock expires: the sentinels need more than their 2 s down-after time to
 * promote it, so the promoted replica never carries a live copy the holder could renew. From the promotion (or that
 * expiry, whichever comes later) on, the promoted replica could grant the key to anyone: the holder must have heard of
 * its loss by then.
 */
@Tag("firewall") // ReplicationCut: iptables and root, with -Pfirewall-tests
class ReplicaMissingRenewalsTest {

    static final AtomicLong LOSS_HEARD = new AtomicLong();
    static final AtomicLong ENTERED = new AtomicLong();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "failover", key = "{0}", waitTime = "1s")
        public String hold(String key, CountDownLatch started, CountDownLatch release) throws InterruptedException {
            started.countDown();
            release.await(60, TimeUnit.SECONDS);
            return "held";
        }

        @Locked(value = "failover", key = "{0}", waitTime = "1s")
        public Uni<String> enterLater(String key) {
            return Uni.createFrom().item("entered");
        }

        @Locked(value = "failover-fenced", key = "{0}", waitTime = "1s", type = LockType.FENCED)
        public long enterFenced(String key) {
            return 1;
        }

        @Locked(value = "failover", key = "{0}", waitTime = "1s")
        public String enter(String key) {
            if (key.equals("k")) {
                ENTERED.compareAndSet(0, System.nanoTime());
            }
            return "entered";
        }
    }

    @ApplicationScoped
    public static class Losses {
        void record(@Observes LockLost loss) {
            System.out.println("ReplicaMissingRenewalsTest: heard " + loss);
            LOSS_HEARD.compareAndSet(0, System.nanoTime());
        }
    }

    @Test
    void anAcquisitionNoReplicaConfirmedFailsClosedAndOnlyThen() throws Exception {
        try (RedisSentinel sentinel = Redis.startSentinel();
                ReplicationCut cut = ReplicationCut.start(sentinel.master(), sentinel.replica())) {
            try (Deployment app = Deployment.start(config(sentinel, true), Work.class)) {
                long asked = System.nanoTime();
                Throwable refusal = catchThrowable(() -> app.bean(Work.class).enter("fresh"));
                System.out.printf(
                        "ReplicaMissingRenewalsTest: an acquisition no replica confirmed ended after %d ms: %s%n",
                        (System.nanoTime() - asked) / 1_000_000, refusal);
                assertThat(refusal)
                        .isInstanceOf(LockNotAcquiredException.class)
                        .hasMessageContaining("padlock.redis.replica-timeout");
                asked = System.nanoTime();
                Throwable later = catchThrowable(() ->
                        app.bean(Work.class).enterLater("fresh-later").await().atMost(Duration.ofSeconds(60)));
                System.out.printf(
                        "ReplicaMissingRenewalsTest: an asynchronous one ended after %d ms: %s%n",
                        (System.nanoTime() - asked) / 1_000_000, later);
                assertThat(later)
                        .as("bounded like a blocking call, not left to Redisson's retries")
                        .isInstanceOf(LockNotAcquiredException.class)
                        .hasMessageContaining("beyond the wait");
                // Redisson retries an unconfirmed acquisition a few times, giving it back each time
                Waits.until(
                        () -> Long.valueOf(0).equals(sentinel.master().command("EXISTS", "padlock:failover:fresh")),
                        "the unconfirmed lock given back");
                // A fenced acquisition runs Padlock's own script (TimeFencedLock): given back too.
                assertThat(catchThrowable(() -> app.bean(Work.class).enterFenced("fresh")))
                        .isInstanceOf(LockNotAcquiredException.class)
                        .hasMessageContaining("padlock.redis.replica-timeout");
                Waits.until(
                        () -> Long.valueOf(0)
                                .equals(sentinel.master().command("EXISTS", "padlock:failover-fenced:fresh")),
                        "the unconfirmed fenced lock given back");
            }
            try (Deployment app = Deployment.start(config(sentinel, false), Work.class)) {
                assertThat(app.bean(Work.class).enter("fresh"))
                        .as("without confirmation, the master's answer is enough")
                        .isEqualTo("entered");
            }
        }
    }

    @Test
    void theHolderHearsOfItsLossBeforeThePromotedReplicaCouldGrantTheKey() throws Exception {
        Outcome outcome = run(true);
        assertThat(outcome.lossHeard).as("the holder heard of its loss").isNotZero();
        assertThat(outcome.lossHeard - outcome.couldGrant)
                .as("when the holder heard of its loss, relative to when the promoted replica could grant the key (ns)")
                .isNegative();
        assertThat(outcome.lossHeard - outcome.entered)
                .as("when the holder heard of its loss, relative to the other application's entry (ns)")
                .isNegative();
    }

    /** The control: renewals the master alone confirmed moved the deadline past the replica's expiry. */
    @Test
    void withoutReplicaConfirmationTheHolderHearsOfItsLossLate() throws Exception {
        Outcome outcome = run(false);
        assertThat(outcome.lossHeard == 0 || outcome.lossHeard - outcome.couldGrant > 0)
                .as("the holder heard of its loss only after the promoted replica could grant the key, or never")
                .isTrue();
    }

    /** Monotonic times: the loss heard of, the first moment the promoted replica could grant the key, the entry. */
    record Outcome(long lossHeard, long couldGrant, long entered) {}

    private static Outcome run(boolean confirm) throws Exception {
        LOSS_HEARD.set(0);
        ENTERED.set(0);
        try (RedisSentinel sentinel = Redis.startSentinel()) {
            Map<String, String> config = config(sentinel, confirm);
            try (Deployment holderApp = Deployment.start(config, Work.class, Losses.class);
                    Deployment otherApp = Deployment.start("other", config, Work.class)) {
                Work holder = holderApp.bean(Work.class);
                Work other = otherApp.bean(Work.class);
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                CompletableFuture<String> holding;
                long taken;
                long replicaExpiry;
                long killed;
                long promoted;
                try {
                    holding = CompletableFuture.supplyAsync(() -> call(() -> holder.hold("k", started, release)));
                    // the holder's method runs: its acquisition (and any confirmation of it) is answered
                    assertThat(started.await(30, TimeUnit.SECONDS))
                            .as("the holder got the lock")
                            .isTrue();
                    taken = awaitHeldOnBoth(sentinel, "padlock:failover:k");
                    try (ReplicationCut cut = ReplicationCut.start(sentinel.master(), sentinel.replica())) {
                        // renewals 2 s and 4 s in reach the master only
                        Promotions.sleepUntil(taken + TimeUnit.MILLISECONDS.toNanos(4_300));
                        long asked = System.nanoTime();
                        long ttl = (Long) sentinel.replica().command("PTTL", "padlock:failover:k");
                        replicaExpiry = asked + TimeUnit.MILLISECONDS.toNanos(ttl);
                        assertThat(ttl)
                                .as("the replica's expiry is still the acquisition's")
                                .isLessThan(2_000);
                        Promotions.sleepUntil(replicaExpiry - TimeUnit.MILLISECONDS.toNanos(1_400));
                        sentinel.master().kill();
                        killed = System.nanoTime();
                        promoted = awaitPromotion(sentinel);
                    }
                    Promotions.enterWhenFree(() -> other.enter("k"), "k");
                } finally {
                    release.countDown();
                }
                holding.handle((value, failure) -> value).get(60, TimeUnit.SECONDS);
                long couldGrant = Math.max(promoted, replicaExpiry);
                long lossHeard = LOSS_HEARD.get();
                long entered = ENTERED.get();
                System.out.printf(
                        "ReplicaMissingRenewalsTest (confirmation %s): master killed %d ms after the lock was taken,"
                                + " replica promoted %d ms after the kill and %d ms after its copy expired; the other"
                                + " application entered %d ms after the promotion; the holder heard of its loss %s%n",
                        confirm ? "on" : "off",
                        millis(killed - taken),
                        millis(promoted - killed),
                        millis(promoted - replicaExpiry),
                        millis(entered - promoted),
                        lossHeard == 0
                                ? "never"
                                : Math.abs(millis(lossHeard - couldGrant)) + " ms "
                                        + (lossHeard < couldGrant ? "before" : "after")
                                        + " the promoted replica could grant the key");
                return new Outcome(lossHeard, couldGrant, entered);
            }
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    /**
     * Waits for the lock to be held on the master and on the replica; returns when it was seen on the master, which is
     * no earlier than the acquisition was sent (the holder's deadline counts from that).
     */
    private static long awaitHeldOnBoth(RedisSentinel sentinel, String key) throws InterruptedException {
        long seen = 0;
        for (int i = 0; i < 500; i++) {
            if (seen == 0 && Long.valueOf(1).equals(sentinel.master().command("EXISTS", key))) {
                seen = System.nanoTime();
            }
            if (seen != 0 && Long.valueOf(1).equals(sentinel.replica().command("EXISTS", key))) {
                return seen;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the lock " + key + " was not held on both servers within 2.5 s");
    }

    /** When the replica became master, polled every 10 ms: the earliest it could grant anything. */
    private static long awaitPromotion(RedisSentinel sentinel) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - giveUp < 0) {
            try {
                Object role = sentinel.replica().command("ROLE");
                if (role instanceof List<?> fields && "master".equals(fields.get(0))) {
                    return System.nanoTime();
                }
            } catch (RuntimeException e) {
                // the replica drops its clients as it changes role
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the sentinels did not promote the replica within 30 s of the master's death");
    }

    private static Map<String, String> config(RedisSentinel sentinel, boolean confirm) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.mode", "sentinel");
        config.put("padlock.redis.nodes", String.join(",", sentinel.sentinelUris()));
        config.put("padlock.redis.sentinel.master-name", sentinel.masterName());
        config.put("padlock.watchdog-timeout", "6s");
        config.put("padlock.redis.replica-confirmation", String.valueOf(confirm));
        return config;
    }

    @FunctionalInterface
    interface Body {
        String run() throws Exception;
    }

    private static String call(Body body) {
        try {
            return body.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
