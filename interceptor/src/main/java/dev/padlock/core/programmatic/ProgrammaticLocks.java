package dev.padlock.core.programmatic;

import dev.padlock.LockException;
import dev.padlock.LockRequest;
import dev.padlock.Locks;
import dev.padlock.core.config.Problems;
import dev.padlock.core.config.SettingValues;
import dev.padlock.core.key.KeyBinder;
import dev.padlock.core.operation.LockOperation;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockTypeConflicts;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.shape.ReflectedShapes;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link Locks} of one engine: turns the settings of a call into an operation, as deployment turns a
 * {@code @Locked} method into one, with the same rules, and keeps it for the next call with the same settings. The
 * first call with new settings plans them (per-lock configuration, the one-type-per-name rule); the others look the
 * operation up.
 *
 * <p>The one-type-per-name rule does not depend on which operations are kept: the first use of every lock name is
 * remembered on its own ({@link #firstUses}), so a new use is compared with it also once the operations are no longer
 * kept.
 */
public final class ProgrammaticLocks implements Locks {

    private static final System.Logger LOG = System.getLogger(ProgrammaticLocks.class.getName());

    /**
     * Operations kept for this many distinct settings; names are meant to be few and keys to vary. Beyond it, calls
     * are planned each time (correct, only slower) and one warning says why.
     */
    static final int KEPT_OPERATIONS = 1024;

    /** Key values are judged by their class once: a call only looks the verdict up. */
    private static final ClassValue<Optional<KeyBinder.Unstable>> UNSTABLE_KEYS = new ClassValue<>() {
        @Override
        protected Optional<KeyBinder.Unstable> computeValue(Class<?> type) {
            return KeyBinder.unstable("it", ReflectedShapes.of(type), true, property -> "its " + property);
        }
    };

    private record Planned(RequestSettings settings, Class<?> result) {}

    /**
     * The first use of one lock name without a key and the first with keys, either {@code null} until made. Every use
     * of a name has the type family of these (the others were refused), so they stand for all of them: an unkeyed and a
     * keyed one, as a keyed use of {@code "stock"} can reach the keys of {@code "stock:eu"} and an unkeyed one cannot.
     */
    private record FirstUses(LockPlan unkeyed, LockPlan keyed) {

        FirstUses with(LockPlan plan) {
            boolean isKeyed = !plan.keys().isEmpty();
            if (isKeyed ? keyed != null : unkeyed != null) {
                return this;
            }
            return isKeyed ? new FirstUses(unkeyed, plan) : new FirstUses(plan, keyed);
        }

        void addTo(List<LockPlan> plans) {
            if (unkeyed != null) {
                plans.add(unkeyed);
            }
            if (keyed != null) {
                plans.add(keyed);
            }
        }
    }

    private final Planner engine;
    private final Map<Planned, LockOperation> operations = new ConcurrentHashMap<>();
    private final AtomicBoolean warnedFull = new AtomicBoolean();

    /**
     * Per lock name used here, sorted so that the names a new one can meet ({@code "stock"} and {@code "stock:eu"})
     * are found without looking at the others; guarded by {@code this}.
     *
     * <p>Bounded by the names, not the settings, and never trimmed: a forgotten name would let its next use take
     * another type beside a holder of the first (an overlap), and refusing names past a count would stop an
     * application that works over what is only a cost. Names are meant to be few (one per kind of resource, the
     * varying part in the key), and a name costs one small record; an application that builds names from data keeps
     * one per value, which {@link #warnedNames one warning} names with the fix.
     */
    private final TreeMap<String, FirstUses> firstUses = new TreeMap<>();

    private boolean warnedNames;

    public ProgrammaticLocks(Planner engine) {
        this.engine = engine;
    }

    @Override
    public LockRequest on(String name) {
        return request(name, new Object[0]);
    }

    @Override
    public LockRequest on(String name, Object key) {
        return request(name, new Object[] {key});
    }

    @Override
    public LockRequest on(String name, Object key, Object... moreKeys) {
        Object[] keys = new Object[1 + moreKeys.length];
        keys[0] = key;
        System.arraycopy(moreKeys, 0, keys, 1, moreKeys.length);
        return request(name, keys);
    }

    private LockRequest request(String name, Object[] keys) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("Locks.on(" + (name == null ? "null" : "\"" + name + "\"")
                    + "): a lock needs a name, e.g. Locks.on(\"stock\", sku)");
        }
        String trimmed = name.trim();
        Problems problems = new Problems();
        if (!SettingValues.hasNoHashTag("Locks.on(\"" + trimmed + "\")", trimmed, problems)) {
            throw new IllegalArgumentException(problems.list().get(0).replaceFirst("\\.$", "")
                    + "; pass the varying part as a key instead, which Padlock escapes");
        }
        RequestSettings settings = new RequestSettings(trimmed, keys.length, null, "", "", null, "");
        for (int i = 0; i < keys.length; i++) {
            checkKey(settings, keys, i);
        }
        return new ProgrammaticLockRequest(this::operation, keys, settings);
    }

    private static void checkKey(RequestSettings settings, Object[] keys, int index) {
        Object key = keys[index];
        if (key == null) {
            throw new IllegalArgumentException(settings.display() + ": " + which(keys, index)
                    + " is null, so no lock can be named for it and nothing ran. Pass a non-null key");
        }
        Optional<KeyBinder.Unstable> unstable = UNSTABLE_KEYS.get(key.getClass());
        if (unstable.isPresent()) {
            throw new IllegalArgumentException(settings.display() + ": " + which(keys, index)
                    + " would not name one lock for equal values: "
                    + unstable.get().reason() + ". "
                    + unstable.get().fix());
        }
    }

    /** How a message names the key at {@code index}: built only when a key is refused, not on every call. */
    private static String which(Object[] keys, int index) {
        return keys.length == 1 ? "the key" : "key " + index + " " + Arrays.toString(keys);
    }

    /**
     * The operation for these settings and this kind of result: kept from an earlier call, or planned now.
     *
     * @throws LockException when a per-lock configuration key is invalid, or the type conflicts with another use of
     *     the name; nothing was taken
     */
    LockOperation operation(RequestSettings settings, Class<?> result) {
        Planned planned = new Planned(settings, result);
        LockOperation operation = operations.get(planned);
        return operation != null ? operation : plan(planned);
    }

    private synchronized LockOperation plan(Planned planned) {
        LockOperation kept = operations.get(planned);
        if (kept != null) {
            return kept;
        }
        LockedMethodValidator.Result result = engine.validator()
                .validateCode(
                        planned.settings().display(),
                        planned.settings().spec(),
                        planned.settings().keyCount(),
                        planned.result());
        if (!result.isValid()) {
            throw new LockException(String.join("\n", result.problems()));
        }
        LockPlan plan = result.plan();
        List<LockPlan> plans = engine.plans();
        usesMeeting(plan.lockName(), plans);
        plans.add(plan);
        List<String> conflicts = LockTypeConflicts.find(
                plans, engine.namedLocks(), engine.validator().config());
        if (!conflicts.isEmpty()) {
            throw new LockException(String.join("\n", conflicts));
        }
        remember(plan, planned.settings());
        Class<?>[] parameterTypes = new Class<?>[planned.settings().keyCount()];
        Arrays.fill(parameterTypes, Object.class);
        LockOperation operation = engine.operation(plan, parameterTypes);
        if (operations.size() < KEPT_OPERATIONS) {
            operations.put(planned, operation);
        } else if (warnedFull.compareAndSet(false, true)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Locks was called with more than " + KEPT_OPERATIONS + " different lock names or settings, the"
                            + " latest " + planned.settings().display() + "; each new one is now planned on every"
                            + " call. Put the varying part in the key (Locks.on(\"stock\", sku), not"
                            + " Locks.on(\"stock:\" + sku)) so that a name stays one lock with one configuration");
        }
        return operation;
    }

    /**
     * Adds the remembered uses of the names a use of {@code name} can meet in Redis: the name itself, the names it
     * extends ({@code "stock"} for {@code "stock:eu"}), and the names that extend it. Uses of other names were checked
     * against each other when they were made.
     */
    private void usesMeeting(String name, List<LockPlan> plans) {
        FirstUses same = firstUses.get(name);
        if (same != null) {
            same.addTo(plans);
        }
        for (int colon = name.indexOf(':'); colon >= 0; colon = name.indexOf(':', colon + 1)) {
            FirstUses shorter = firstUses.get(name.substring(0, colon));
            if (shorter != null) {
                shorter.addTo(plans);
            }
        }
        firstUses.subMap(name + ":", name + ";").values().forEach(longer -> longer.addTo(plans));
    }

    private void remember(LockPlan plan, RequestSettings settings) {
        FirstUses before = firstUses.get(plan.lockName());
        FirstUses after = before == null ? new FirstUses(null, null).with(plan) : before.with(plan);
        if (after == before) {
            return;
        }
        firstUses.put(plan.lockName(), after);
        if (before == null && firstUses.size() > KEPT_OPERATIONS && !warnedNames) {
            warnedNames = true;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Locks was called with more than " + KEPT_OPERATIONS + " different lock names, the latest "
                            + settings.display() + "; Padlock remembers the type of every name for as long as the"
                            + " application runs (to refuse a second type for it), so each new name costs memory."
                            + " Put the varying part in the key (Locks.on(\"stock\", sku), not"
                            + " Locks.on(\"stock:\" + sku))");
        }
    }
}
