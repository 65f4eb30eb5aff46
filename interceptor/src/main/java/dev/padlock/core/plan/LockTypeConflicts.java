package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import dev.padlock.core.redis.LockKind;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The rule that every {@code @Locked} method and named lock bean able to reach one Redis key uses one lock type,
 * written once for the portable extension, the Quarkus build and Quarkus start-up, over their plans.
 *
 * <p>Redisson's lock families do not see each other: REENTRANT, FAIR, SPIN and FENCED locks exclude by the
 * key's existence, READ and WRITE by a {@code mode} field the others never write, so a reader is let in beside
 * an exclusive holder and its release deletes that holder's entry. Exclusive types among themselves exclude, but
 * each wakes its waiters on its own channel (or not at all), so a waiter of another type misses the release and
 * times out. READ and WRITE are one family and share a key by design.
 */
public final class LockTypeConflicts {

    private static final String REASON = "Redisson's locks of different types do not see each other's holders on"
            + " one Redis key, so both could run at once, or a waiter could miss the release and time out";

    private LockTypeConflicts() {}

    /** One problem per lock name used with more than one type, and per pair of names that can meet. */
    public static List<String> find(
            Collection<LockPlan> plans, Collection<NamedLocks.NamedLock> namedLocks, ConfigView config) {
        Map<String, Map<String, Use>> byName = new TreeMap<>();
        for (LockPlan plan : plans) {
            Use use = Use.of(plan, config);
            byName.computeIfAbsent(use.name, n -> new TreeMap<>()).putIfAbsent(use.by, use);
        }
        for (NamedLocks.NamedLock lock : namedLocks) {
            Use use = Use.of(lock, config);
            byName.computeIfAbsent(use.name, n -> new TreeMap<>()).putIfAbsent(use.by, use);
        }
        TreeMap<String, List<Use>> sorted = new TreeMap<>();
        byName.forEach((name, uses) ->
                sorted.put(name, uses.values().stream().sorted(Use.ORDER).collect(Collectors.toList())));

        Problems problems = new Problems();
        // One name, one type, even where one use is keyed and another not and their keys cannot meet: a name is
        // one lock to its readers and to padlock.locks."<name>".type, which sets every use of it at once.
        sorted.forEach((name, uses) -> {
            if (uses.stream().map(Use::family).distinct().count() > 1) {
                problems.invalid(
                        uses.get(0).subject,
                        "the lock \"" + name + "\" is taken with different types: "
                                + uses.stream().map(u -> u.type + " by " + u.by).collect(Collectors.joining(", "))
                                + ". " + REASON,
                        "Use one type for every lock named \"" + name + "\" (READ and WRITE may share one), or give"
                                + " the locks different names");
            }
        });
        // A rendered key may be any text, ':' included, so "stock" keyed by {sku} reaches "padlock:stock:eu-42",
        // the key of a lock named "stock:eu-42", and the keys of "stock:eu" keyed by anything. Template literals
        // (e.g. "eu-{sku}") could rule some of these out, but names that extend one another with different types
        // are confusing even where they cannot meet: a rename is cheap, a missed overlap is not, so any such pair
        // is refused. A name without keys reaches only its own key, so it cannot meet a longer name.
        sorted.forEach((name, uses) -> {
            String extended = name + ":";
            for (Map.Entry<String, List<Use>> longer :
                    sorted.subMap(extended, name + ";").entrySet()) {
                reachable(uses, longer.getValue(), extended, problems);
            }
        });
        return problems.list();
    }

    /** The first keyed use of the shorter name whose type differs from uses of the longer one, if any. */
    private static void reachable(List<Use> shorter, List<Use> longer, String extended, Problems problems) {
        for (Use keyed : shorter) {
            if (!keyed.keyed) {
                continue;
            }
            List<Use> others = longer.stream()
                    .filter(u -> !u.family().equals(keyed.family()))
                    .collect(Collectors.toList());
            if (others.isEmpty()) {
                continue;
            }
            Use first = others.get(0);
            problems.invalid(
                    keyed.subject,
                    "its keys " + keyed.base + ":<key> can be "
                            + (first.keyed ? "the keys " + first.base + ":<key>" : first.base) + ", locked as "
                            + others.stream().map(u -> u.type + " by " + u.by).collect(Collectors.joining(", "))
                            + ", and as " + keyed.type + " here. " + REASON,
                    "Use one type for both, or a name for one of them that does not start with \"" + extended + "\"");
            return;
        }
    }

    /**
     * One method or named bean using a lock name.
     *
     * @param type the effective type as messages show it, naming the config key that set it
     * @param subject what a message about this use is about (see {@link Problems#invalid})
     * @param by how other messages name it
     */
    private record Use(
            String name,
            String base,
            boolean keyed,
            String family,
            String type,
            boolean method,
            String subject,
            String by) {

        /** Methods first, as most messages are about them; then by name. */
        static final Comparator<Use> ORDER =
                Comparator.comparing((Use u) -> !u.method).thenComparing(Use::by);

        static Use of(LockPlan plan, ConfigView config) {
            LockType type = plan.settings().type();
            return new Use(
                    plan.lockName(),
                    plan.redisBase(),
                    !plan.keys().isEmpty(),
                    LockKind.of(type).family(),
                    type.name() + configured(plan.lockName(), config),
                    true,
                    Problems.member(plan.method(), "type"),
                    plan.method());
        }

        static Use of(NamedLocks.NamedLock lock, ConfigView config) {
            String family = LockKind.of(lock.type()).family();
            // an RReadWriteLock is the whole family, both sides of it
            String type = lock.kind() == NamedLocks.Kind.READ_WRITE
                    ? family
                    : lock.type().name() + (lock.kind() == NamedLocks.Kind.LOCK ? configured(lock.name(), config) : "");
            return new Use(
                    lock.name(),
                    lock.redisKey(),
                    false,
                    family,
                    type,
                    false,
                    "@Named(\"" + lock.name() + "\") " + lock.kind().simpleName() + " injection point " + lock.where(),
                    "the " + lock.kind().simpleName() + " injected at " + lock.where());
        }

        private static String configured(String name, ConfigView config) {
            return config.perLock(name, ConfigKeys.TYPE)
                    .map(e -> " (" + e.getKey() + ")")
                    .orElse("");
        }
    }
}
