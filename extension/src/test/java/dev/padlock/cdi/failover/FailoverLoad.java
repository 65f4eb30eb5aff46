package dev.padlock.cdi.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Callers;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisSentinel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A load through a Sentinel failover, for {@link FailoverUnderLoadTest} and {@link ShortLeaseFailoverUnderLoadTest}:
 * three applications of eight threads each hammer 16 keys and one hot key while the master is SIGKILLed; the run goes
 * on for 10 s after the sentinels promoted the replica. Each call does a racy read-modify-write of a plain counter kept
 * in this JVM's memory (not in Redis) and notes who else is inside its key. With the lock: no two calls of one key
 * overlap, unless the one inside first had heard of its loss ({@link LockLost}) before the other entered (counted
 * apart), no update is lost but by such a call, and every call ends. Calls that fail to get the lock or reach Redis
 * while the master is gone are expected; they are counted.
 */
final class FailoverLoad {

    private FailoverLoad() {}

    static final int APPLICATIONS = 3;
    static final int THREADS_PER_APPLICATION = 8;
    static final int KEYS = 16;
    static final int HOT_KEY = KEYS; // the 17th key, taken by a third of the calls

    /** A loss as heard, with the times of the call it was of (zeros if not known). */
    record LossSeen(String what, long[] call) {
        String describe(Tally tally) {
            if (call[0] == 0) {
                return what;
            }
            return what + "; the call began at " + tally.afterKill(call[0])
                    + " ms, body from " + (call[1] == 0 ? "-" : tally.afterKill(call[1])) + " to "
                    + (call[2] == 0 ? "-" : tally.afterKill(call[2])) + " ms (planned "
                    + TimeUnit.NANOSECONDS.toMillis(call[3]) + " ms)";
        }
    }

    /** Who is inside a key now: which application, and whether it heard of its loss. */
    static final class Occupant {
        final String application;
        volatile boolean lost;

        Occupant(String application) {
            this.application = application;
        }
    }

    /** Shared by the three applications (static: each container has its own beans), reset before each run. */
    static final class Ledger {
        static final int[] counts = new int[KEYS + 1]; // deliberately not atomic: only the lock protects it
        static final AtomicIntegerArray completed = new AtomicIntegerArray(KEYS + 1);
        static final AtomicIntegerArray overlapsAfterLoss = new AtomicIntegerArray(KEYS + 1);
        static final AtomicInteger overlaps = new AtomicInteger();
        /** The latest planned end ({@link System#nanoTime}) of a body longer than a millisecond begun so far. */
        static final AtomicLong slowBodyEnd = new AtomicLong();

        static final List<Set<Occupant>> inside = new ArrayList<>();
        static final Map<String, AtomicInteger> losses = new ConcurrentHashMap<>();
        /** Each loss as heard: when ({@link System#nanoTime}), and what. */
        static final Map<Long, LossSeen> lossLog = new ConcurrentHashMap<>();
        /**
         * The current caller thread's call ({@link System#nanoTime}): when it began, its body began and ended, and the
         * body's planned length; all 0 on other threads. To time the release, and to tell a loss heard on the caller's
         * thread (at release) when its body ran.
         */
        static final ThreadLocal<long[]> call = ThreadLocal.withInitial(() -> new long[4]);
        /** The times of the call of an application ("application-0:5") whose body ran last, until that call returns. */
        static final Map<String, long[]> lastBody = new ConcurrentHashMap<>();

        static {
            for (int i = 0; i <= KEYS; i++) {
                inside.add(ConcurrentHashMap.newKeySet());
            }
        }

        static void reset() {
            for (int i = 0; i <= KEYS; i++) {
                counts[i] = 0;
                completed.set(i, 0);
                overlapsAfterLoss.set(i, 0);
                inside.get(i).clear();
            }
            overlaps.set(0);
            slowBodyEnd.set(System.nanoTime());
            losses.clear();
            lossLog.clear();
            lastBody.clear();
        }

        static void increment(String application, int key, long bodyNanos) {
            Occupant me = new Occupant(application);
            Set<Occupant> here = inside.get(key);
            here.add(me);
            boolean unreported = false;
            boolean afterLoss = false;
            for (Occupant other : here) {
                if (other != me) {
                    if (other.lost) {
                        afterLoss = true;
                    } else {
                        unreported = true;
                    }
                }
            }
            if (unreported) {
                overlaps.incrementAndGet();
            } else if (afterLoss) {
                overlapsAfterLoss.incrementAndGet(key);
            }
            if (bodyNanos > 1_000_000) {
                long now = System.nanoTime();
                slowBodyEnd.accumulateAndGet(now + bodyNanos, (a, b) -> a - b > 0 ? a : b);
            }
            long[] times = call.get();
            times[1] = System.nanoTime();
            lastBody.put(application + ":" + key, times);
            times[3] = bodyNanos;
            int read = counts[key];
            LockSupport.parkNanos(bodyNanos); // widens the race window
            counts[key] = read + 1;
            completed.incrementAndGet(key);
            here.remove(me);
            times[2] = System.nanoTime();
        }

        /** A loss of {@code application}'s hold on the key: whoever of it is inside the key now heard of it. */
        static void lost(String application, LockLost loss) {
            losses.computeIfAbsent(loss.detectedBy().name(), d -> new AtomicInteger())
                    .incrementAndGet();
            String suffix = loss.lockKey().substring(loss.lockKey().lastIndexOf(':') + 1);
            long[] running = lastBody.get(application + ":" + suffix);
            long[] times = running != null ? running.clone() : call.get().clone();
            lossLog.put(
                    System.nanoTime(),
                    new LossSeen(
                            application + " " + loss.lockKey() + " " + loss.detectedBy() + " held for "
                                    + loss.heldFor().toMillis() + " ms"
                                    + (loss.cause() == null ? "" : " (" + loss.cause() + ")"),
                            times));
            for (Occupant occupant : inside.get(Integer.parseInt(suffix))) {
                if (occupant.application.equals(application)) {
                    occupant.lost = true;
                }
            }
        }
    }

    /** The name of the application a container plays, set by the test right after it started. */
    @ApplicationScoped
    public static class ApplicationName {
        private volatile String name = "?";

        // methods, not the field: the test holds a client proxy, whose fields are not the instance's
        public String name() {
            return name;
        }

        public void name(String name) {
            this.name = name;
        }
    }

    @ApplicationScoped
    public static class Counters {
        @Inject
        ApplicationName application;

        @Locked(value = "load", key = "{key}", waitTime = "2s")
        public void incrementLocked(int key, long bodyNanos) {
            Ledger.increment(application.name(), key, bodyNanos);
        }

        public void incrementUnlocked(int key, long bodyNanos) {
            Ledger.increment(application.name(), key, bodyNanos);
        }
    }

    @ApplicationScoped
    public static class Losses {
        @Inject
        ApplicationName application;

        void record(@Observes LockLost loss) {
            Ledger.lost(application.name(), loss);
        }
    }

    /** What the callers counted; times in ms after the kill where there was one. */
    static final class Tally {
        final AtomicInteger succeeded = new AtomicInteger();
        final AtomicInteger succeededAfterPromotion = new AtomicInteger();
        final AtomicInteger notAcquired = new AtomicInteger();
        final AtomicInteger lostExceptions = new AtomicInteger();
        final Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        final AtomicLong longestCallNanos = new AtomicLong();
        final AtomicLong longestCallStart = new AtomicLong();
        final AtomicLong longestReleaseNanos = new AtomicLong();
        final AtomicLong longestReleaseStart = new AtomicLong();
        final AtomicInteger callsOverThreeSeconds = new AtomicInteger();
        final AtomicInteger releasesOverOneSecond = new AtomicInteger();
        final AtomicInteger succeededBeforeKill = new AtomicInteger();
        /** Calls that succeeded, by the second after the kill in which they ended. */
        final AtomicIntegerArray succeededBySecond = new AtomicIntegerArray(20);

        volatile long killed;
        volatile long promoted;

        void timed(long start, long end, long bodyEnd) {
            long call = end - start;
            if (call > TimeUnit.SECONDS.toNanos(3)) {
                callsOverThreeSeconds.incrementAndGet();
            }
            if (call > longestCallNanos.get()) {
                synchronized (this) {
                    if (call > longestCallNanos.get()) {
                        longestCallNanos.set(call);
                        longestCallStart.set(start);
                    }
                }
            }
            if (bodyEnd != 0) { // the body ran
                long release = end - bodyEnd;
                if (release > TimeUnit.SECONDS.toNanos(1)) {
                    releasesOverOneSecond.incrementAndGet();
                }
                synchronized (this) {
                    if (release > longestReleaseNanos.get()) {
                        longestReleaseNanos.set(release);
                        longestReleaseStart.set(bodyEnd);
                    }
                }
            }
        }

        int lossEvents() {
            return Ledger.losses.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        long afterKill(long at) {
            return killed == 0 ? TimeUnit.NANOSECONDS.toMillis(at) : TimeUnit.NANOSECONDS.toMillis(at - killed);
        }
    }

    /**
     * Runs the load for 2 s and until it is under way, kills the master, goes on for 10 s after the promotion; asserts
     * no unreported overlap, no update lost without a reported loss behind it, and calls that succeed after the
     * promotion. {@code name} heads what is printed.
     */
    static Tally runThroughFailover(String name, Map<String, String> config, int slowOneIn) throws Exception {
        long setUp = System.nanoTime();
        try (RedisSentinel sentinel = Redis.startSentinel();
                Deployments apps = Deployments.start(sentinel, config)) {
            System.out.printf(
                    "%s: topology and %d applications up in %d ms%n",
                    name, APPLICATIONS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - setUp));
            Tally tally = new Tally();
            run(apps, tally, Counters::incrementLocked, slowOneIn, () -> {
                Promotions.sleep(2000);
                awaitLoad(slowOneIn > 0);
                tally.killed = System.nanoTime();
                sentinel.master().kill();
                Promotions.awaitSentinelPromotion(sentinel, sentinel.master().port());
                tally.promoted = System.nanoTime();
                Promotions.sleep(10_000);
            });

            Map<Integer, Integer> lostUpdates = lostUpdates();
            int overlapsAfterLoss = 0;
            for (int key = 0; key <= KEYS; key++) {
                overlapsAfterLoss += Ledger.overlapsAfterLoss.get(key);
            }
            int bodies = 0;
            for (int key = 0; key <= KEYS; key++) {
                bodies += Ledger.completed.get(key);
            }
            System.out.printf(
                    "%s: promotion seen %d ms after the kill; %d bodies ran (%d on the hot key), %d calls succeeded,"
                            + " %d before the kill, %d after the promotion; %d not acquired, %d LockLostException,"
                            + " errors %s; LockLost events %s; overlaps %d, overlaps after a reported loss %d, lost"
                            + " updates %s; longest call %d ms (began %d ms after the kill), longest release %d ms"
                            + " (began %d ms after the kill); %d calls over 3 s, %d releases over 1 s; calls that"
                            + " succeeded by second after the kill %s%n",
                    name,
                    tally.afterKill(tally.promoted),
                    bodies,
                    Ledger.completed.get(HOT_KEY),
                    tally.succeeded.get(),
                    tally.succeededBeforeKill.get(),
                    tally.succeededAfterPromotion.get(),
                    tally.notAcquired.get(),
                    tally.lostExceptions.get(),
                    new TreeMap<>(tally.errors),
                    new TreeMap<>(Ledger.losses),
                    Ledger.overlaps.get(),
                    overlapsAfterLoss,
                    lostUpdates,
                    TimeUnit.NANOSECONDS.toMillis(tally.longestCallNanos.get()),
                    tally.afterKill(tally.longestCallStart.get()),
                    TimeUnit.NANOSECONDS.toMillis(tally.longestReleaseNanos.get()),
                    tally.afterKill(tally.longestReleaseStart.get()),
                    tally.callsOverThreeSeconds.get(),
                    tally.releasesOverOneSecond.get(),
                    tally.succeededBySecond);

            new TreeMap<>(Ledger.lossLog)
                    .forEach((at, loss) -> System.out.printf(
                            "%s: at %d ms after the kill: %s%n", name, tally.afterKill(at), loss.describe(tally)));
            assertThat(Ledger.overlaps.get())
                    .as("calls that entered a key while another call was inside it that had not heard of a loss")
                    .isZero();
            for (Map.Entry<Integer, Integer> lost : lostUpdates.entrySet()) {
                assertThat(Ledger.overlapsAfterLoss.get(lost.getKey()))
                        .as("updates of key %d were lost without a reported loss behind them", lost.getKey())
                        .isPositive();
            }
            assertThat(tally.succeededAfterPromotion.get())
                    .as("calls that succeeded after the promotion")
                    .isPositive();
            return tally;
        }
    }

    /**
     * Waits until the load runs (50 bodies done) and, when {@code slowBodySpansTheOutage}, a body runs that will
     * outlast any lease of 3 s from now by far (4.5 s left), so that the kill to come leaves it without renewals. Fails
     * after 30 s.
     */
    private static void awaitLoad(boolean slowBodySpansTheOutage) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            int bodies = 0;
            for (int key = 0; key <= KEYS; key++) {
                bodies += Ledger.completed.get(key);
            }
            long now = System.nanoTime();
            boolean spanning = Ledger.slowBodyEnd.get() - now > TimeUnit.MILLISECONDS.toNanos(4500);
            if (bodies >= 50 && (!slowBodySpansTheOutage || spanning)) {
                return;
            }
            assertThat(now - giveUp)
                    .as("the load running (%d bodies done) with a long body under way, within 30 s", bodies)
                    .isNegative();
            Promotions.sleep(10);
        }
    }

    /** Per key with a loss: bodies that completed minus what the plain counter shows. */
    static Map<Integer, Integer> lostUpdates() {
        Map<Integer, Integer> lost = new TreeMap<>();
        for (int key = 0; key <= KEYS; key++) {
            int missing = Ledger.completed.get(key) - Ledger.counts[key];
            if (missing != 0) {
                lost.put(key, missing);
            }
        }
        return lost;
    }

    /** Runs every application's callers until {@code meanwhile} returns, then waits for each caller to end. */
    /** One call of a counter: {@code bodyNanos} is how long the body takes between its read and its write. */
    @FunctionalInterface
    interface Call {
        void call(Counters counters, int key, long bodyNanos);
    }

    /**
     * Runs every application's callers until {@code meanwhile} returns, then waits for each caller to end. One call in
     * {@code slowOneIn} (none for 0) has a body of 1 to 6 s; the others, 0.2 ms.
     */
    static void run(Deployments apps, Tally tally, Call call, int slowOneIn, Runnable meanwhile)
            throws InterruptedException {
        Ledger.reset();
        AtomicBoolean stop = new AtomicBoolean();
        Callers callers = Callers.start(APPLICATIONS * THREADS_PER_APPLICATION, caller -> {
            Counters counters = apps.counters.get(caller % APPLICATIONS);
            String application = "application-" + caller % APPLICATIONS; // as Deployments names them
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                int key = random.nextInt(3) == 0 ? HOT_KEY : random.nextInt(KEYS);
                long start = System.nanoTime();
                long[] times = Ledger.call.get();
                times[0] = start;
                times[1] = 0;
                times[2] = 0;
                times[3] = 0;
                try {
                    boolean slow = slowOneIn > 0 && random.nextInt(slowOneIn) == 0;
                    call.call(
                            counters, key, slow ? TimeUnit.MILLISECONDS.toNanos(1000 + random.nextInt(5000)) : 200_000);
                    tally.succeeded.incrementAndGet();
                    if (tally.killed == 0) {
                        tally.succeededBeforeKill.incrementAndGet();
                    }
                    if (tally.promoted != 0 && start - tally.promoted > 0) {
                        tally.succeededAfterPromotion.incrementAndGet();
                    }
                    if (tally.killed != 0) {
                        int second = (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - tally.killed);
                        if (second < tally.succeededBySecond.length()) {
                            tally.succeededBySecond.incrementAndGet(second);
                        }
                    }
                } catch (LockNotAcquiredException e) {
                    tally.notAcquired.incrementAndGet();
                } catch (LockLostException e) {
                    tally.lostExceptions.incrementAndGet();
                } catch (RuntimeException e) {
                    tally.errors
                            .computeIfAbsent(e.getClass().getSimpleName(), name -> new AtomicInteger())
                            .incrementAndGet();
                    Promotions.sleep(20); // no busy loop while Redis is unreachable
                } finally {
                    tally.timed(start, System.nanoTime(), times[2]);
                    Ledger.lastBody.remove(application + ":" + key, times);
                }
            }
        });
        try {
            meanwhile.run();
        } finally {
            stop.set(true);
            // every call ends: a caller still inside one after 2 minutes fails here
            callers.await();
        }
    }

    /** The three applications, each its own container and Redis client, closed together. */
    static final class Deployments implements AutoCloseable {
        final List<Deployment> started = new ArrayList<>();
        final List<Counters> counters = new ArrayList<>();

        static Deployments start(RedisSentinel sentinel, Map<String, String> settings) {
            Map<String, String> config = new HashMap<>(settings);
            config.put("padlock.redis.mode", "sentinel");
            config.put("padlock.redis.nodes", String.join(",", sentinel.sentinelUris()));
            config.put("padlock.redis.sentinel.master-name", sentinel.masterName());
            Deployments apps = new Deployments();
            try {
                for (int a = 0; a < APPLICATIONS; a++) {
                    String name = "application-" + a;
                    Deployment app = Deployment.start(
                            a == 0 ? null : name, config, ApplicationName.class, Counters.class, Losses.class);
                    apps.started.add(app);
                    app.bean(ApplicationName.class).name(name);
                    apps.counters.add(app.bean(Counters.class));
                }
                return apps;
            } catch (RuntimeException e) {
                apps.close();
                throw e;
            }
        }

        @Override
        public void close() {
            RuntimeException failure = null;
            for (int i = started.size() - 1; i >= 0; i--) {
                try {
                    started.get(i).close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}
