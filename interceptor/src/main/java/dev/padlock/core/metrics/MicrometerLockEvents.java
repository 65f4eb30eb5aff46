package dev.padlock.core.metrics;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import dev.padlock.core.events.LockEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Padlock's meters in a Micrometer registry, tagged with the lock name and type, never with the rendered key (one per
 * argument value: unbounded, and possibly user data). Every meter of a method is registered when its operation is
 * built, so dashboards show zeros rather than no data, and a call only updates meters it already holds.
 *
 * <ul>
 *   <li>{@code padlock.lock.acquire} timer {@code {lock, type, outcome}}: the wait, per outcome ({@code acquired},
 *       {@code not_acquired}, {@code skipped}, {@code interrupted}, {@code error}, {@code refused})
 *   <li>{@code padlock.lock.held} timer {@code {lock, type}}: from acquisition to release
 *   <li>{@code padlock.lock.active} gauge {@code {lock, type}}: calls holding the lock now
 *   <li>{@code padlock.lock.waiting} gauge {@code {lock, type}}: calls of this application queued locally for it
 *   <li>{@code padlock.lock.expired} counter {@code {lock, type}}: keys that ended without their release (lost, or
 *       left to lapse), each blocked until its lease and lock-delay ran out
 *   <li>{@code padlock.lock.lost} counter {@code {lock, type, detection}}: locks lost while their method ran
 *   <li>{@code padlock.lease.renewals} counter {@code {lock, type, result}}: renewals {@code renewed} or {@code
 *       failed}
 * </ul>
 *
 * <p>Names are meant to be few (the varying part goes in the key), but {@code Locks.on("stock:" + sku)} is accepted:
 * so that such names cannot grow the registry (and the metrics backend) without bound, the first {@value
 * #LOCK_NAMES} distinct names get a {@code lock} tag of their own and later ones are counted together under {@value
 * #OTHER}, with one warning.
 */
public final class MicrometerLockEvents implements LockEvents {

    private static final System.Logger LOG = System.getLogger(MicrometerLockEvents.class.getName());

    /**
     * Distinct lock names with a tag of their own; as many as {@code Locks} keeps operations for, far more than an
     * application's code and configuration name.
     */
    public static final int LOCK_NAMES = 1024;

    /** The {@code lock} tag of names past {@link #LOCK_NAMES}; no lock name has braces, so none is taken for it. */
    public static final String OTHER = "{other}";

    private final MeterRegistry registry;
    /** The gauges' values, one pair per lock tag and type, shared by the methods that use the name. */
    private final Map<String, LockMeter.Gauges> gauges = new ConcurrentHashMap<>();
    /** The names with a tag of their own; guarded by itself. */
    private final Set<String> tagged = new HashSet<>();

    private boolean warnedOther;

    public MicrometerLockEvents(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Meter meter(String lockName, LockType type) {
        String lock = lockTag(lockName);
        Tags tags = Tags.of("lock", lock, "type", tagValue(type));
        LockMeter.Gauges shared =
                gauges.computeIfAbsent(lock + '\n' + type, name -> LockMeter.Gauges.register(registry, tags));
        return new LockMeter(registry, tags, shared);
    }

    /** The name itself while fewer than {@link #LOCK_NAMES} names were tagged, then {@link #OTHER} for new names. */
    private String lockTag(String lockName) {
        synchronized (tagged) {
            if (tagged.contains(lockName)) {
                return lockName;
            }
            if (tagged.size() < LOCK_NAMES) {
                tagged.add(lockName);
                return lockName;
            }
            if (warnedOther) {
                return OTHER;
            }
            warnedOther = true;
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "Padlock's meters have " + LOCK_NAMES + " different lock names, so lock \"" + lockName + "\" and"
                        + " every later new name are counted under lock=\"" + OTHER + "\". Lock names are meant to"
                        + " be few: put the varying part in the key (Locks.on(\"stock\", sku), not"
                        + " Locks.on(\"stock:\" + sku)), which no meter shows");
        return OTHER;
    }

    static String tagValue(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** One method's meters, all looked up once. */
    private static final class LockMeter implements Meter {

        private final Map<Outcome, Timer> acquire = new EnumMap<>(Outcome.class);
        private final Timer held;
        private final Map<LockLost.Detection, Counter> lost = new EnumMap<>(LockLost.Detection.class);
        private final Counter expired;
        private final Counter renewed;
        private final Counter renewalFailed;
        private final Gauges gauges;

        LockMeter(MeterRegistry registry, Tags tags, Gauges gauges) {
            for (Outcome outcome : Outcome.values()) {
                acquire.put(
                        outcome,
                        Timer.builder("padlock.lock.acquire")
                                .description("Time waited for a lock, by how the wait ended")
                                .tags(tags)
                                .tag("outcome", tagValue(outcome))
                                .register(registry));
            }
            held = Timer.builder("padlock.lock.held")
                    .description("Time a lock was held, from acquisition to release")
                    .tags(tags)
                    .register(registry);
            for (LockLost.Detection detection : LockLost.Detection.values()) {
                lost.put(
                        detection,
                        Counter.builder("padlock.lock.lost")
                                .description("Locks lost while their method ran, by how the loss was found")
                                .tags(tags)
                                .tag("detection", tagValue(detection))
                                .register(registry));
            }
            expired = Counter.builder("padlock.lock.expired")
                    .description("Keys that ended without their release: lost, or left to lapse; each blocks its key"
                            + " until its lease and lock-delay run out")
                    .tags(tags)
                    .register(registry);
            renewed = renewals(registry, tags, "renewed");
            renewalFailed = renewals(registry, tags, "failed");
            this.gauges = gauges;
        }

        private static Counter renewals(MeterRegistry registry, Tags tags, String result) {
            return Counter.builder("padlock.lease.renewals")
                    .description("Lease renewals of held locks, confirmed by Redis or failed")
                    .tags(tags)
                    .tag("result", result)
                    .register(registry);
        }

        @Override
        public void acquired(Outcome outcome, long waitNanos, Object acquiring) {
            acquire.get(outcome).record(waitNanos, TimeUnit.NANOSECONDS);
            if (outcome == Outcome.ACQUIRED) {
                gauges.active.incrementAndGet();
            }
        }

        @Override
        public void released(long heldNanos) {
            gauges.active.decrementAndGet();
            held.record(heldNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void lost(LockLost.Detection detection) {
            lost.get(detection).increment();
        }

        @Override
        public void expired() {
            expired.increment();
        }

        @Override
        public void renewed() {
            renewed.increment();
        }

        @Override
        public void renewalFailed() {
            renewalFailed.increment();
        }

        @Override
        public void queued() {
            gauges.waiting.incrementAndGet();
        }

        @Override
        public void dequeued() {
            gauges.waiting.decrementAndGet();
        }

        /** Calls holding and calls queued for one lock name and type; the registry reads them. */
        record Gauges(AtomicLong active, AtomicLong waiting) {

            static Gauges register(MeterRegistry registry, Tags tags) {
                Gauges gauges = new Gauges(new AtomicLong(), new AtomicLong());
                // The registry holds gauges weakly: the engine's meters keep these values reachable while it runs.
                Gauge.builder("padlock.lock.active", gauges.active, AtomicLong::get)
                        .description("Calls holding the lock now")
                        .tags(tags)
                        .register(registry);
                Gauge.builder("padlock.lock.waiting", gauges.waiting, AtomicLong::get)
                        .description("Calls of this application queued locally for the lock")
                        .tags(tags)
                        .register(registry);
                return gauges;
            }
        }
    }
}
