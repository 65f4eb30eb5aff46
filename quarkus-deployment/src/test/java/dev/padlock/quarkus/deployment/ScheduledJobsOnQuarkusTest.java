package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.contract.ReadableMeterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.text.MessageFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked} on Quarkus {@code @Scheduled} methods: a job every 6 seconds, fired by two schedules 2 seconds apart
 * (an instance whose clock is 2 s behind), runs once per occurrence with a hold-at-least of 4 s: longer than the skew,
 * so the late schedule finds the key held when the early one ran, and shorter than the interval minus the skew, so the
 * early schedule finds it free at the next occurrence when the late one ran. That leaves 2 s each way for the
 * scheduler's jitter (it checks its triggers on each full second) and a busy machine's delays: with 3 s, a 1 s skew
 * and 1.5 s, a late run delayed 0.6 s in a CI run made one occurrence run twice and the next not on time. The control,
 * the same pair without a hold-at-least, runs every occurrence twice: each run ends long before the late schedule
 * fires. The late schedule's skips are counted as {@code skipped} and logged at DEBUG, never WARN.
 */
class ScheduledJobsOnQuarkusTest {

    /** Complete occurrences to watch: an occurrence is complete once both of its schedules have fired. */
    private static final int OCCURRENCES = 3;

    private static final long INTERVAL_SECONDS = 6;

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(
                    Runs.class,
                    EarlyInstance.class,
                    LateInstance.class,
                    EarlyControl.class,
                    LateControl.class,
                    ReadableMeterRegistry.class,
                    TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("quarkus.datasource.health.enabled", "false")
            .overrideConfigKey("quarkus.log.category.\"dev.padlock\".level", "DEBUG")
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("dev.padlock"))
            .assertLogRecords(records -> {
                assertThat(records)
                        .as("Padlock's log lines while the late schedules skipped")
                        .noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                        .anySatisfy(r -> {
                            assertThat(r.getLevel().intValue()).as("DEBUG").isEqualTo(Level.FINE.intValue());
                            assertThat(MessageFormat.format(r.getMessage(), r.getParameters()))
                                    .startsWith("Skipped " + ScheduledJobsOnQuarkusTest.class.getName() + "$")
                                    .contains("Instance#report(")
                                    .contains("lock padlock:report is held by another caller");
                        });
            });

    /** Which schedule ran the job, by occurrence (the fire time's second, divided by the interval). */
    @ApplicationScoped
    public static class Runs {
        private final ConcurrentMap<String, ConcurrentMap<Long, List<String>>> byJob = new ConcurrentHashMap<>();

        void ran(String job, ScheduledExecution execution, String schedule) {
            long occurrence = execution.getScheduledFireTime().getEpochSecond() / INTERVAL_SECONDS;
            byJob.computeIfAbsent(job, j -> new ConcurrentHashMap<>())
                    .computeIfAbsent(occurrence, o -> new CopyOnWriteArrayList<>())
                    .add(schedule);
        }

        /** The runs of {@code job} by occurrence, in order. */
        public Map<Long, List<String>> of(String job) {
            return new TreeMap<>(byJob.getOrDefault(job, new ConcurrentHashMap<>()));
        }
    }

    @ApplicationScoped
    public static class EarlyInstance {
        @Inject
        Runs runs;

        @Scheduled(cron = "0/6 * * * * ?")
        @Locked(value = "report", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast = "4s")
        void report(ScheduledExecution execution) {
            runs.ran("report", execution, "early");
        }
    }

    /** The same job on an instance whose clock is 2 s behind. */
    @ApplicationScoped
    public static class LateInstance {
        @Inject
        Runs runs;

        @Scheduled(cron = "2/6 * * * * ?")
        @Locked(value = "report", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast = "4s")
        void report(ScheduledExecution execution) {
            runs.ran("report", execution, "late");
        }
    }

    @ApplicationScoped
    public static class EarlyControl {
        @Inject
        Runs runs;

        @Scheduled(cron = "0/6 * * * * ?")
        @Locked(value = "report-released", waitTime = "0", onFailure = OnFailure.SKIP)
        void report(ScheduledExecution execution) {
            runs.ran("report-released", execution, "early");
        }
    }

    @ApplicationScoped
    public static class LateControl {
        @Inject
        Runs runs;

        @Scheduled(cron = "2/6 * * * * ?")
        @Locked(value = "report-released", waitTime = "0", onFailure = OnFailure.SKIP)
        void report(ScheduledExecution execution) {
            runs.ran("report-released", execution, "late");
        }
    }

    @Inject
    Runs runs;

    @Inject
    MeterRegistry registry;

    @Test
    void eachOccurrenceRunsOnceWithAHoldAtLeastAndTwiceWithout() throws InterruptedException {
        // The first occurrence may be cut by the start (one schedule fired before it): watched from the next one.
        long first = System.currentTimeMillis() / 1000 / INTERVAL_SECONDS + 1;
        long last = first + OCCURRENCES - 1;
        // Until the late schedule of the last occurrence has fired and its run or skip is recorded.
        long until = (last * INTERVAL_SECONDS + 3) * 1000;
        while (System.currentTimeMillis() < until) {
            Thread.sleep(100);
        }

        Map<Long, List<String>> held = runs.of("report");
        Map<Long, List<String>> released = runs.of("report-released");
        for (long occurrence = first; occurrence <= last; occurrence++) {
            // once, by whichever schedule got there first (the early one, unless its run was delayed)
            assertThat(held.get(occurrence))
                    .as("occurrence %d with a hold-at-least (all: %s)", occurrence, held)
                    .hasSize(1);
            assertThat(released.get(occurrence))
                    .as("occurrence %d, the control (all: %s)", occurrence, released)
                    .containsExactlyInAnyOrder("early", "late");
        }
        assertThat(registry.get("padlock.lock.acquire")
                        .tags("lock", "report", "type", "reentrant", "outcome", "skipped")
                        .timer()
                        .count())
                .as("the late schedule's skips")
                .isGreaterThanOrEqualTo(OCCURRENCES);
    }
}
