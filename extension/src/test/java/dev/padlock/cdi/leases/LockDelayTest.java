package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisMonitor;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Lock-delay ({@code padlock.locks."<name>".lock-delay}): a key lives in Redis for its lease plus the delay, so a holder
 * that vanished without releasing (here: a JVM killed with SIGKILL) keeps it blocked that much longer while its last
 * writes drain; a holder that releases frees it at once. Redis says how long a key has left ({@code PTTL}) and what
 * each script set ({@code MONITOR}): the tests read those, not clocks. The controls run without a delay.
 */
class LockDelayTest {

    private static final long LEASE_MS = 2_000;
    private static final long DELAY_MS = 5_000;
    private static final String DOOR = "padlock:door";
    private static final String RENEWED = "padlock:renewed";

    @ApplicationScoped
    public static class Door {
        @Locked(value = "door", leaseTime = "2s", waitTime = "20s")
        public void hold(CountDownLatch release) throws InterruptedException {
            release.await(60, TimeUnit.SECONDS);
        }

        @Locked(value = "door", leaseTime = "2s", waitTime = "20s")
        public String enter() {
            return "entered";
        }

        /** Watchdog mode: renewed every second (a 3 s watchdog timeout). */
        @Locked(value = "renewed")
        public void holdRenewed(CountDownLatch release) throws InterruptedException {
            release.await(60, TimeUnit.SECONDS);
        }

        @Locked(value = "kept", leaseTime = "2s", holdAtLeast = "1s")
        public String enterKept() {
            return "entered";
        }

        /** Handed the door 1 s into its holder's 2 s lease, stays 1.5 s: past that lease, within its own. */
        @Locked(value = "door", leaseTime = "2s", waitTime = "20s")
        public String enterAndStay() throws InterruptedException {
            Thread.sleep(1_500);
            return "stayed";
        }

        @Locked(value = "fenced-door", type = LockType.FENCED, leaseTime = "2s")
        public String enterFenced() {
            return "entered";
        }
    }

    @Test
    void aHolderKilledWithoutReleasingBlocksTheKeyForItsLeasePlusTheDelay() throws Exception {
        long left = killedHoldersKeyLeft(true);
        assertThat(left)
                .as("ms the key had left when its holder was killed (lease %d ms, delay %d ms)", LEASE_MS, DELAY_MS)
                .isGreaterThan(LEASE_MS)
                .isLessThanOrEqualTo(LEASE_MS + DELAY_MS);
    }

    @Test
    void controlWithoutADelayTheKilledHoldersKeyFreesAtItsLease() throws Exception {
        assertThat(killedHoldersKeyLeft(false)).isLessThanOrEqualTo(LEASE_MS);
    }

    @Test
    void aHolderThatReleasesFreesTheKeyAtOnce() throws Exception {
        try (RedisServer redis = Redis.startServer();
                Deployment app = Deployment.start(config(redis.uri(), true), Door.class)) {
            assertThat(app.bean(Door.class).enter()).isEqualTo("entered");
            assertThat(redis.command("EXISTS", DOOR)).isEqualTo(0L);
        }
    }

    /** A hold-at-least is a release at a later time, not a vanished holder: the key ends at its time. */
    @Test
    void aHoldAtLeastEndsAtItsTimeWithoutTheDelay() throws Exception {
        try (RedisServer redis = Redis.startServer();
                Deployment app = Deployment.start(config(redis.uri(), true), Door.class)) {
            assertThat(app.bean(Door.class).enterKept()).isEqualTo("entered");
            assertThat((Long) redis.command("PTTL", "padlock:kept"))
                    .as("ms the kept key has left")
                    .isBetween(1L, 1_000L);
        }
    }

    /**
     * A holder cut off from Redis hears of its loss at its lease's deadline, not at the key's expiry: the key is still in
     * Redis for about the delay then, keeping the next holder out while this one's last writes drain. The control,
     * without a delay, expires within the deadline's margin of the loss.
     */
    @Test
    void aCutOffHolderHearsOfItsLossAtItsLeaseWhileTheKeyWaitsOutTheDelay() throws Exception {
        assertThat(keyLeftWhenTheCutOffHolderHeard(true))
                .as("ms the key had left in Redis when the holder heard of its loss (delay %d ms)", DELAY_MS)
                .isGreaterThan(DELAY_MS / 2);
        assertThat(keyLeftWhenTheCutOffHolderHeard(false)).isLessThan(DELAY_MS / 2);
    }

    private static long keyLeftWhenTheCutOffHolderHeard(boolean delayed) throws Exception {
        try (RedisServer redis = Redis.startServer();
                RedisProxy proxy = RedisProxy.to(redis);
                Deployment app =
                        Deployment.start(config(proxy.uri(), delayed), Door.class, LeaseLossTest.Losses.class)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Void> holding = CompletableFuture.runAsync(
                    () -> call(() -> app.bean(Door.class).hold(release)));
            try {
                Waits.untilHeld(app, DOOR);
                proxy.cut();
                Waits.until(() -> !losses.seen().isEmpty(), "the holder heard of its loss");
                long left = (Long) redis.command("PTTL", DOOR);
                System.out.printf(
                        "LockDelayTest (delay %s): the cut-off holder heard of its loss with %d ms left on the key%n",
                        delayed ? DELAY_MS + " ms" : "none", left);
                return left;
            } finally {
                release.countDown();
                proxy.restore();
                holding.handle((done, failure) -> done).get(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Every expiry a holder sets, by its acquisition script, its renewals (watchdog mode) and a fenced lock's own
     * script, is the lease plus the delay.
     */
    @Test
    void everyExpiryAHolderSetsIsItsLeasePlusTheDelay() throws Exception {
        try (RedisServer redis = Redis.startServer();
                Deployment app = Deployment.start(config(redis.uri(), true), Door.class);
                RedisMonitor monitor = redis.monitor()) {
            Door door = app.bean(Door.class);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> call(() -> door.holdRenewed(release)));
            try {
                Waits.until(() -> expiries(monitor.commands(), RENEWED).size() >= 3, "two renewals");
            } finally {
                release.countDown();
            }
            holding.get(30, TimeUnit.SECONDS);
            door.enterFenced();

            List<RedisMonitor.Command> seen = monitor.sync();
            assertThat(expiries(seen, RENEWED))
                    .as("the watchdog lease (3 s) plus the delay, at acquisition and at each renewal")
                    .hasSizeGreaterThanOrEqualTo(3)
                    .containsOnly(Long.toString(3_000 + DELAY_MS));
            assertThat(expiries(seen, "padlock:fenced-door"))
                    .as("the fixed lease plus the delay, in the fenced lock's own script (and in the confirmation of a"
                            + " first call that took longer than the deadline's margin)")
                    .isNotEmpty()
                    .containsOnly(Long.toString(LEASE_MS + DELAY_MS));
        }
    }

    /**
     * A key handed to the next caller of this application stays in Redis (no release, no new acquisition): the lease
     * owed to that caller is set by an extension, which carries the delay too.
     */
    @Test
    void aKeyHandedToTheNextLocalCallerIsExtendedWithTheDelay() throws Exception {
        try (RedisServer redis = Redis.startServer();
                RedisMonitor monitor = redis.monitor()) {
            Map<String, String> config = config(redis.uri(), true);
            config.put("padlock.locks.\"door\".hand-off-budget", "1m"); // the holder's 300 ms are past the default
            try (Deployment app = Deployment.start(config, Door.class)) {
                handOver(redis, monitor, app.bean(Door.class), app.bean(PadlockEngine.class));
            }
        }
    }

    private static void handOver(RedisServer redis, RedisMonitor monitor, Door door, PadlockEngine engine)
            throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> call(() -> door.hold(release)));
        Waits.until(() -> Long.valueOf(1).equals(redis.command("EXISTS", DOOR)), "the door held");
        CompletableFuture<String> next = CompletableFuture.supplyAsync(() -> {
            try {
                return door.enterAndStay();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Waits.until(
                () -> engine.liveLocks().queues().size() == 1,
                "the next caller queued behind the holder in this application");
        Thread.sleep(1_000); // handed over 1 s into the holder's lease, so the next caller's stay needs an extension
        release.countDown();
        holding.get(30, TimeUnit.SECONDS);
        assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo("stayed");

        List<RedisMonitor.Command> seen = monitor.sync();
        assertThat(seen.stream().filter(c -> c.name().equals("del") && c.arg(1).equals(DOOR)))
                .as("the door was handed over, not released and taken again")
                .hasSize(1);
        List<String> expiries = expiries(seen, DOOR);
        assertThat(expiries.subList(1, expiries.size()))
                .as("the extensions owed to the caller it was handed to: each the owed lease plus the delay")
                .isNotEmpty()
                .allSatisfy(ms -> assertThat(Long.parseLong(ms)).isGreaterThan(DELAY_MS));
    }

    /** The expiries scripts set on {@code key}: each PEXPIRE's milliseconds. */
    private static List<String> expiries(List<RedisMonitor.Command> commands, String key) {
        return commands.stream()
                .filter(c ->
                        c.fromScript() && c.name().equals("pexpire") && c.arg(1).equals(key))
                .map(c -> c.arg(2))
                .toList();
    }

    /**
     * Starts a holder in another JVM, kills it (SIGKILL) while it holds the door, and returns the key's time left as Redis
     * says right after. Then checks that this JVM gets in once the key has expired, and says after how long.
     */
    private static long killedHoldersKeyLeft(boolean delayed) throws Exception {
        try (RedisServer redis = Redis.startServer();
                Deployment app = Deployment.start(config(redis.uri(), delayed), Door.class)) {
            Process holder = HolderMain.start(redis.uri(), delayed);
            long left;
            long killed;
            try {
                Waits.until(
                        () -> Long.valueOf(1).equals(redis.command("EXISTS", DOOR)), "the other JVM holds the door");
            } finally {
                holder.destroyForcibly();
                assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
                killed = System.nanoTime();
                left = (Long) redis.command("PTTL", DOOR);
            }
            assertThat(app.bean(Door.class).enter()).isEqualTo("entered");
            System.out.printf(
                    "LockDelayTest (delay %s): the key had %d ms left when its holder was killed; entered %d ms after%n",
                    delayed ? DELAY_MS + " ms" : "none",
                    left,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
            return left;
        }
    }

    private static Map<String, String> config(String redisUri, boolean delayed) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", redisUri);
        config.put("padlock.watchdog-timeout", "3s");
        if (delayed) {
            for (String lock : List.of("door", "renewed", "fenced-door", "kept")) {
                config.put("padlock.locks.\"" + lock + "\".lock-delay", DELAY_MS + "ms");
            }
        }
        return config;
    }

    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private static void call(Body body) {
        try {
            body.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The holder in another JVM: takes the door and holds it until killed. */
    public static final class HolderMain {
        public static void main(String[] args) throws Exception {
            try (Deployment app = Deployment.start(config(args[0], Boolean.parseBoolean(args[1])), Door.class)) {
                app.bean(Door.class).hold(new CountDownLatch(1));
            }
            System.exit(0);
        }

        static Process start(String redisUri, boolean delayed) throws IOException {
            Path log = Path.of("target", "lock-delay-holder.log");
            Files.deleteIfExists(log);
            return new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            HolderMain.class.getName(),
                            redisUri,
                            Boolean.toString(delayed))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        }
    }
}
