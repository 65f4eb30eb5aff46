package dev.padlock.cdi.handoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Callers;
import dev.padlock.cdi.Deployment;
import dev.padlock.core.engine.EngineOptions;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fair turns across applications (issue #24): a chain of hand-offs in one application is bounded so that callers of
 * other applications waiting in Redis get the key. When the bound unlocks the key, this application's next caller is
 * queued in the JVM and ready at once, while the others' waiters must first hear of the release: without giving way,
 * it wins the key straight back and the bound lets nobody in. Three applications, four callers each, on one key with
 * a bound of 4 hand-offs: the test counts the chains an application followed with another chain of its own while the
 * others still had callers waiting, once with giving way and once with it switched off (the control), one after the
 * other in one test so that both runs see the same machine.
 *
 * <p>Giving way is a pause of two round trips, so how many chains are still won back depends on how soon the other
 * applications' threads get a core: on 2 busy cores it was 6-11 % of chains with giving way against 27-43 % without
 * (12 runs, half of them beside a busy loop), and in a full build beside a busy loop 43 of 219 against 72. The test
 * asserts the difference (at most two thirds as many; with giving way off on both sides the two counts came out
 * equal, 86 and 86), not a percentage the machine decides.
 */
@ExtendWith(RedisExtension.class)
class FairTurnsTest {

    private static final int LIMIT = 4;
    /** Entries of the contended phase: every application keeps callers waiting until the total reaches it. */
    private static final int ENTRIES = 1200;
    /** Entries left out at the start of the contended phase. */
    private static final int SETTLING = 100;

    static final List<String> SEQUENCE = Collections.synchronizedList(new ArrayList<>());
    static final AtomicInteger INSIDE = new AtomicInteger();
    static final AtomicInteger OVERLAPS = new AtomicInteger();

    @ApplicationScoped
    public static class Hot {
        @Locked(value = "fair-turns", waitTime = "60s")
        public void enter(String app) {
            if (INSIDE.incrementAndGet() > 1) {
                OVERLAPS.incrementAndGet();
            }
            SEQUENCE.add(app);
            LockSupport.parkNanos(20_000);
            INSIDE.decrementAndGet();
        }
    }

    @BeforeEach
    void reset(RedisServer redis) {
        redis.flushAll();
        SEQUENCE.clear();
        INSIDE.set(0);
        OVERLAPS.set(0);
    }

    @Test
    void anApplicationDoesNotWinTheKeyStraightBackFromTheOthersWaiters(RedisServer redis) throws Exception {
        Chains givingWay = run(redis, EngineOptions.DEFAULTS);
        int givingWayOverlaps = OVERLAPS.get();
        reset(redis);
        Chains control = run(redis, EngineOptions.DEFAULTS.withoutGivingWay());

        assertThat(givingWayOverlaps).isZero();
        assertThat(OVERLAPS.get()).isZero();
        assertThat(control.wonBack())
                .as(
                        "without giving way (the control), chains followed by another of the same application, of %d (%s)",
                        control.ends(), control)
                .isGreaterThan(control.ends() / 10);
        assertThat(givingWay.wonBack())
                .as(
                        "with giving way, chains followed by another of the same application, of %d (%s), against %d of"
                                + " %d without",
                        givingWay.ends(), givingWay, control.wonBack(), control.ends())
                .isLessThanOrEqualTo(control.wonBack() * 2 / 3);
        assertThat(givingWay.smallestShare())
                .as("smallest application's share of %d entries (%s)", ENTRIES - SETTLING, givingWay)
                .isGreaterThan(0.25);
    }

    private static Chains run(RedisServer redis, EngineOptions options) throws Exception {
        Map<String, String> config = new HashMap<>(Map.of("padlock.redis.address", redis.uri()));
        config.put("padlock.hand-off-limit", String.valueOf(LIMIT));
        config.put("padlock.hand-off-budget", "1h");
        List<String> apps = List.of("a", "b", "c");
        List<Deployment> deployments = new ArrayList<>();
        try {
            List<Hot> beans = new ArrayList<>();
            for (String app : apps) {
                Deployment deployment = Deployment.start(app, config, options, Hot.class);
                deployments.add(deployment);
                beans.add(deployment.bean(Hot.class));
                deployment.bean(Hot.class).enter("warm-up");
            }
            SEQUENCE.clear();
            AtomicBoolean contended = new AtomicBoolean(true);
            Callers.start(apps.size() * 4, caller -> {
                        int app = caller % apps.size();
                        while (contended.get()) {
                            beans.get(app).enter(apps.get(app));
                            if (SEQUENCE.size() >= ENTRIES) {
                                contended.set(false);
                            }
                        }
                    })
                    .await();
            List<String> sequence;
            synchronized (SEQUENCE) {
                // the first entries are left out: the applications' first callers are still finding their places
                sequence = new ArrayList<>(SEQUENCE.subList(SETTLING, ENTRIES));
            }
            return Chains.of(sequence, apps);
        } finally {
            for (Deployment deployment : deployments) {
                deployment.close();
            }
        }
    }

    /**
     * The entries as runs of one application: a run longer than a chain (the first holder and {@code LIMIT}
     * hand-offs) means the application took the key from Redis again right after its own chain unlocked it.
     */
    record Chains(int ends, int wonBack, double smallestShare, Map<String, Integer> counts, String runs) {

        static Chains of(List<String> sequence, List<String> apps) {
            int ends = 0;
            int wonBack = 0;
            int run = 0;
            for (int i = 0; i < sequence.size(); i++) {
                run = i > 0 && sequence.get(i).equals(sequence.get(i - 1)) ? run + 1 : 1;
                if (run % (LIMIT + 1) == 0 && i + 1 < sequence.size()) {
                    ends++; // a full chain ended here: the next entry shows who took the key
                    if (sequence.get(i + 1).equals(sequence.get(i))) {
                        wonBack++;
                    }
                }
            }
            Map<String, Integer> counts = new HashMap<>();
            for (String app : apps) {
                counts.put(app, Collections.frequency(sequence, app));
            }
            double smallest =
                    counts.values().stream().mapToInt(Integer::intValue).min().orElse(0) / (double) sequence.size();
            StringBuilder runs = new StringBuilder();
            for (int i = 0, length = 1; i < sequence.size(); i++, length++) {
                if (i + 1 == sequence.size() || !sequence.get(i + 1).equals(sequence.get(i))) {
                    runs.append(sequence.get(i)).append(length).append(' ');
                    length = 0;
                }
            }
            return new Chains(ends, wonBack, smallest, counts, "runs of one application: " + runs);
        }
    }
}
