package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.EngineOptions;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A held lock through a Sentinel failover, for {@link SentinelFailoverTest} and
 * {@link LeaseEndingInSentinelFailoverTest}: application A holds a key while its master is SIGKILLed and the sentinels
 * promote the replica; application B keeps trying to take the same key all along. Times are taken on this JVM's
 * monotonic clock, in milliseconds after the kill, and printed.
 *
 * <p>With a healthy replica the key and its expiry reach the replica before the kill (a run waits for that), so the
 * promoted replica still holds A's lock; whether A keeps it then depends on its lease outlasting the outage. The case
 * where the promoted replica has an older expiry than A believes (a replica that missed renewals) is another test's.
 */
final class SentinelHolding {

    private SentinelHolding() {}

    static final String KEY = "k";
    static final String REDIS_KEY = "padlock:failover:" + KEY;

    /** Monotonic times: A's body began and ended, A heard of its loss, B entered. */
    static final Map<String, Long> TIMES = new ConcurrentHashMap<>();

    static final Map<String, LockLost.Detection> DETECTED = new ConcurrentHashMap<>();

    @ApplicationScoped
    public static class Work {
        @Locked(value = "failover", key = "{0}", waitTime = "10s")
        public String holdWithWatchdog(String key, CountDownLatch started, CountDownLatch release)
                throws InterruptedException {
            return hold(started, release);
        }

        @Locked(value = "failover", key = "{0}", waitTime = "10s", leaseTime = "8s")
        public String holdForEightSeconds(String key, CountDownLatch started, CountDownLatch release)
                throws InterruptedException {
            return hold(started, release);
        }

        @Locked(value = "failover", key = "{0}", waitTime = "10s", leaseTime = "2s")
        public String holdForTwoSeconds(String key, CountDownLatch started, CountDownLatch release)
                throws InterruptedException {
            return hold(started, release);
        }

        @Locked(value = "failover", key = "{0}", waitTime = "1s")
        public String enter(String key) {
            TIMES.putIfAbsent("entered", System.nanoTime());
            return "entered";
        }

        private static String hold(CountDownLatch started, CountDownLatch release) throws InterruptedException {
            TIMES.put("bodyStart", System.nanoTime());
            started.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } finally {
                TIMES.put("bodyEnd", System.nanoTime());
            }
            return "held";
        }
    }

    @ApplicationScoped
    public static class Losses {
        void record(@Observes LockLost loss) {
            if (TIMES.putIfAbsent("lossSeen", System.nanoTime()) == null) {
                DETECTED.put("loss", loss.detectedBy());
            }
        }
    }

    /** How A holds: which method, and how long after the promotion its body goes on. */
    @FunctionalInterface
    interface Holder {
        String hold(Work work, CountDownLatch started, CountDownLatch release) throws Exception;
    }

    /** What a run saw, in milliseconds after the kill (null: did not happen). */
    record Outcome(
            String name,
            long promotedMs,
            Long lossMs,
            LockLost.Detection detection,
            long bodyEndMs,
            long returnedMs,
            Long enteredMs,
            boolean renewedOnNewMaster,
            int notAcquired,
            int errors) {

        /** Whether B entered while A's body ran without A having heard of its loss first. */
        boolean late() {
            if (enteredMs == null) {
                return false;
            }
            if (lossMs == null) {
                return enteredMs < bodyEndMs;
            }
            return lossMs >= enteredMs;
        }

        /** Whether B entered while A's body still ran. */
        boolean enteredDuringTheBody() {
            return enteredMs != null && enteredMs < bodyEndMs;
        }

        void print() {
            System.out.printf(
                    "%s: promotion seen %d ms after the kill; A's loss %s; A's body ended at %d ms, its call"
                            + " returned at %d ms (release %d ms); B entered at %s ms (%d not acquired, %d errors"
                            + " before); renewal reached the new master: %s; B entered during A's body: %s; late: %s%n",
                    name,
                    promotedMs,
                    lossMs == null ? "not reported" : detection + " at " + lossMs + " ms",
                    bodyEndMs,
                    returnedMs,
                    returnedMs - bodyEndMs,
                    enteredMs,
                    notAcquired,
                    errors,
                    renewedOnNewMaster,
                    enteredDuringTheBody(),
                    late());
        }
    }

    /**
     * One run: starts the topology and the two applications, lets A hold (as {@code holding} says) and B try, kills the
     * master, keeps A's body going {@code holdAfterPromotionMs} after the promotion, and returns what it saw, printed
     * under {@code name}. Everything it started is stopped also when it fails.
     */
    static Outcome run(String name, String watchdog, long holdAfterPromotionMs, Holder holding) throws Exception {
        return run(name, watchdog, holdAfterPromotionMs, holding, EngineOptions.DEFAULTS);
    }

    /** As {@link #run(String, String, long, Holder)}, with A's engine rules {@code options}. */
    static Outcome run(String name, String watchdog, long holdAfterPromotionMs, Holder holding, EngineOptions options)
            throws Exception {
        TIMES.clear();
        DETECTED.clear();
        long setUp = System.nanoTime();
        try (RedisSentinel sentinel = Redis.startSentinel();
                Deployment holderApp =
                        Deployment.start(null, config(sentinel, watchdog), options, Work.class, Losses.class);
                Deployment otherApp = Deployment.start("other", config(sentinel, watchdog), Work.class)) {
            System.out.printf(
                    "%s: topology and both applications up in %d ms%n",
                    name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - setUp));
            Work holder = holderApp.bean(Work.class);
            Work other = otherApp.bean(Work.class);
            RedisServer master = sentinel.master();
            RedisServer replica = sentinel.replica();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean stopTrying = new AtomicBoolean();
            AtomicInteger notAcquired = new AtomicInteger();
            AtomicInteger errors = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<String> held = threads.submit(() -> {
                    try {
                        return holding.hold(holder, started, release);
                    } finally {
                        TIMES.put("returned", System.nanoTime());
                    }
                });
                Waits.await(started);
                // A healthy replica: it has the key, with the expiry the master gave it, before the master dies.
                Waits.until(
                        () -> Long.valueOf(1).equals(replica.command("EXISTS", REDIS_KEY)),
                        "the replica to have " + REDIS_KEY);
                Future<?> trying = threads.submit(() -> {
                    while (!stopTrying.get()) {
                        try {
                            other.enter(KEY);
                            return;
                        } catch (LockNotAcquiredException e) {
                            notAcquired.incrementAndGet();
                        } catch (RuntimeException e) {
                            // the master is gone and the client has not switched yet: try again
                            errors.incrementAndGet();
                            Promotions.sleep(50);
                        }
                    }
                });
                Promotions.sleep(300); // B waits for the key before the kill
                Object holderField = master.command("HKEYS", REDIS_KEY); // A's owner id
                long killed = System.nanoTime();
                master.kill();
                int newPort = Promotions.awaitSentinelPromotion(sentinel, master.port());
                long promoted = System.nanoTime();
                assertThat(newPort).isEqualTo(replica.port());
                // Watch the key's expiry on the new master while A's body goes on and A still owns the key there: a
                // rise is A's renewal that got there.
                long firstTtl = ttl(replica, holderField);
                long highestTtl = firstTtl;
                long holdUntil = promoted + TimeUnit.MILLISECONDS.toNanos(holdAfterPromotionMs);
                while (System.nanoTime() - holdUntil < 0) {
                    highestTtl = Math.max(highestTtl, ttl(replica, holderField));
                    Promotions.sleep(20);
                }
                release.countDown();
                String result;
                try {
                    result = held.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    result = "failed: " + e.getCause();
                }
                System.out.println(name + ": A's call ended with " + result
                        + "; key's PTTL on the new master at promotion " + firstTtl + " ms, highest after "
                        + highestTtl + " ms");
                trying.get(60, TimeUnit.SECONDS);
                Outcome outcome = new Outcome(
                        name,
                        millisAfter(killed, promoted),
                        TIMES.containsKey("lossSeen") ? millisAfter(killed, TIMES.get("lossSeen")) : null,
                        DETECTED.get("loss"),
                        millisAfter(killed, TIMES.get("bodyEnd")),
                        millisAfter(killed, TIMES.get("returned")),
                        TIMES.containsKey("entered") ? millisAfter(killed, TIMES.get("entered")) : null,
                        highestTtl > firstTtl + 100,
                        notAcquired.get(),
                        errors.get());
                outcome.print();
                return outcome;
            } finally {
                release.countDown();
                stopTrying.set(true);
                threads.shutdownNow();
                threads.awaitTermination(30, TimeUnit.SECONDS);
            }
        }
    }

    /** The key's PTTL on {@code server} while {@code owner} holds it there; -3 once another owner does. */
    private static long ttl(RedisServer server, Object owner) {
        try {
            Object before = server.command("HKEYS", REDIS_KEY);
            long ttl = (Long) server.command("PTTL", REDIS_KEY);
            Object after = server.command("HKEYS", REDIS_KEY);
            return owner.equals(before) && owner.equals(after) ? ttl : -3;
        } catch (RuntimeException e) {
            return -3;
        }
    }

    private static long millisAfter(long from, long to) {
        return TimeUnit.NANOSECONDS.toMillis(to - from);
    }

    private static Map<String, String> config(RedisSentinel sentinel, String watchdog) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.mode", "sentinel");
        config.put("padlock.redis.nodes", String.join(",", sentinel.sentinelUris()));
        config.put("padlock.redis.sentinel.master-name", sentinel.masterName());
        config.put("padlock.watchdog-timeout", watchdog);
        return config;
    }
}
