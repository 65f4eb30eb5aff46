package dev.padlock.cdi.handoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLostException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Finding E2 of engine review 2: a key Redis no longer holds must not be handed on. When the key vanishes from Redis
 * while a call of application A holds it (Redis restarted without persistence, failed over, evicted or flushed),
 * the call that lost it is told when it releases (RELEASE), and A's next callers ask Redis, where application B may
 * hold the key by now: they wait for B rather than run beside it.
 *
 * <p>a1 of A holds the key; a2 and a3 queue behind it in A; the key is deleted in Redis; B takes it and stays inside
 * for 1.5 s; then a1 returns. Each caller records who was inside, across both applications, when it entered. The
 * control runs the same scenario with hand-off off in A.
 */
@ExtendWith(RedisExtension.class)
class HandOffOfALostKeyTest {

    private static final String KEY = "padlock:e2:k";

    /** Who is inside {@code enter} now, across both applications. */
    static final Set<String> INSIDE = Collections.synchronizedSet(new LinkedHashSet<>());

    /** Who was inside when each caller entered. */
    static final Map<String, List<String>> ENTRIES = Collections.synchronizedMap(new TreeMap<>());

    /** Entries and exits, in order, across both applications. */
    static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());

    @ApplicationScoped
    public static class Room {
        @Locked(value = "e2", key = "{room}", waitTime = "30s")
        public void enter(String room, String who, Runnable body) {
            synchronized (INSIDE) {
                ENTRIES.put(who, new ArrayList<>(INSIDE));
                INSIDE.add(who);
                EVENTS.add(who + " entered");
            }
            try {
                body.run();
            } finally {
                synchronized (INSIDE) {
                    INSIDE.remove(who);
                    EVENTS.add(who + " left");
                }
            }
        }
    }

    /** A thread per caller: the common pool may have a single thread on a small machine. */
    private ExecutorService threads;

    @BeforeEach
    void reset(RedisServer redis) {
        threads = Executors.newCachedThreadPool();
        redis.flushAll();
        INSIDE.clear();
        ENTRIES.clear();
        EVENTS.clear();
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void aKeyRedisNoLongerHoldsIsNotHandedOnAndItsLossIsReported(RedisServer redis) throws Exception {
        Map<String, String> configA = config(redis);
        // the chain is bounded by its queue here, not by how long a1 holds while the scene is set
        configA.put("padlock.hand-off-budget", "1h");

        Map<String, String> outcomes = loseTheKeyWhileCallersQueue(redis, configA);

        assertLossReportedAndNobodyJoinedB(outcomes);
    }

    /** The control: without hand-off, a1's release asks Redis, and so do a2 and a3. */
    @Test
    void controlWithoutHandOffTheLossIsReportedAndNobodyJoinsTheOtherApplication(RedisServer redis) throws Exception {
        Map<String, String> configA = config(redis);
        configA.put("padlock.hand-off-limit", "0");

        Map<String, String> outcomes = loseTheKeyWhileCallersQueue(redis, configA);

        assertLossReportedAndNobodyJoinedB(outcomes);
    }

    private static Map<String, String> config(RedisServer redis) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.address", redis.uri());
        config.put("padlock.on-lease-lost", "throw");
        // the first renewal, which would find the loss, comes a third of this after a1 took the key: after the test
        config.put("padlock.watchdog-timeout", "60s");
        return config;
    }

    private static Map<String, String> configB(RedisServer redis) {
        Map<String, String> config = config(redis);
        // a caller of A waiting in Redis that misses B's unlock message (Redisson's subscription race,
        // redisson#4744) tries again when the key's time to live ends: a short lease keeps that well within its wait
        config.put("padlock.watchdog-timeout", "2s");
        return config;
    }

    private static void assertLossReportedAndNobodyJoinedB(Map<String, String> outcomes) {
        String report = "Outcomes: " + outcomes + "; entries (who was inside at each entry): " + ENTRIES + "; events: "
                + EVENTS;
        assertThat(outcomes.get("a1"))
                .as("a1, which lost the key, is told when it releases. %s", report)
                .isEqualTo("LockLostException RELEASE");
        assertThat(outcomes.get("b")).as(report).isEqualTo("ok");
        for (String next : List.of("a2", "a3")) {
            if (ENTRIES.containsKey(next)) {
                assertThat(ENTRIES.get(next))
                        .as("who was inside when %s entered. %s", next, report)
                        .doesNotContain("b");
                assertThat(EVENTS.indexOf(next + " entered"))
                        .as("%s entered after B left. %s", next, report)
                        .isGreaterThan(EVENTS.indexOf("b left"));
            }
        }
        assertThat(ENTRIES.keySet()).as("who ran. %s", report).containsAnyOf("a2", "a3");
    }

    /**
     * a1 of A holds the key until a2 and a3 are queued behind it in A, the key is deleted in Redis and B has entered
     * (B stays 1.5 s); then a1 returns. Returns each caller's outcome: {@code ok}, or the exception's class (and for
     * a {@code LockLostException}, how the loss was found).
     */
    private Map<String, String> loseTheKeyWhileCallersQueue(RedisServer redis, Map<String, String> configA)
            throws Exception {
        try (Deployment appA = Deployment.start(configA, Room.class);
                Deployment appB = Deployment.start("b", configB(redis), Room.class)) {
            Room a = appA.bean(Room.class);
            Room b = appB.bean(Room.class);
            PadlockEngine engineA = appA.bean(PadlockEngine.class);
            CountDownLatch releaseA1 = new CountDownLatch(1);
            CountDownLatch bInside = new CountDownLatch(1);
            Map<String, CompletableFuture<Void>> calls = new TreeMap<>();

            calls.put("a1", run(() -> a.enter("k", "a1", () -> Waits.await(releaseA1))));
            Waits.until(() -> ENTRIES.containsKey("a1"), "a1 entered");
            calls.put("a2", run(() -> a.enter("k", "a2", () -> {})));
            calls.put("a3", run(() -> a.enter("k", "a3", () -> {})));
            Waits.until(
                    () -> engineA.liveLocks().queues().stream().anyMatch(queue -> queue.waiting() == 2),
                    "a2 and a3 queued in A");

            assertThat(redis.command("DEL", KEY)).as("the key deleted in Redis").isEqualTo(1L);
            calls.put(
                    "b",
                    run(() -> b.enter("k", "b", () -> {
                        bInside.countDown();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1_500));
                    })));
            Waits.await(bInside);
            releaseA1.countDown();

            Map<String, String> outcomes = new TreeMap<>();
            for (Map.Entry<String, CompletableFuture<Void>> call : calls.entrySet()) {
                Throwable failure =
                        call.getValue().handle((ok, thrown) -> thrown).get(60, TimeUnit.SECONDS);
                outcomes.put(call.getKey(), outcome(failure));
            }
            return outcomes;
        }
    }

    private static String outcome(Throwable failure) {
        if (failure == null) {
            return "ok";
        }
        Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof LockLostException lost) {
            return "LockLostException " + lost.getLoss().detectedBy();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    private CompletableFuture<Void> run(Runnable call) {
        return CompletableFuture.runAsync(call, threads);
    }
}
