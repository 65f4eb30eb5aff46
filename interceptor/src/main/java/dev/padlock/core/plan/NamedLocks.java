package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.PadlockSettings;
import dev.padlock.core.redis.LockKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.redisson.api.RedissonClient;

/**
 * The rules for {@code @Inject @Named("x") RLock / RReadWriteLock / RFencedLock} injection points, written once
 * for the portable extension and the Quarkus build step: each distinct name becomes one bean on Redis key
 * {@code <prefix>x}, typed by {@code padlock.locks."x".type}.
 */
public final class NamedLocks {

    /** The injectable lock types. */
    public enum Kind {
        LOCK("org.redisson.api.RLock", EnumSet.of(LockType.REENTRANT, LockType.FAIR, LockType.SPIN, LockType.FENCED)),
        READ_WRITE("org.redisson.api.RReadWriteLock", EnumSet.noneOf(LockType.class)),
        FENCED("org.redisson.api.RFencedLock", EnumSet.of(LockType.FENCED));

        private final String typeName;
        private final Set<LockType> configurable;

        Kind(String typeName, Set<LockType> configurable) {
            this.typeName = typeName;
            this.configurable = configurable;
        }

        public String typeName() {
            return typeName;
        }

        public String simpleName() {
            return typeName.substring(typeName.lastIndexOf('.') + 1);
        }

        public static Optional<Kind> ofTypeName(String name) {
            for (Kind k : values()) {
                if (k.typeName.equals(name)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * One injection point as the container reports it.
     *
     * @param name the {@code @Named} value, as the container resolved it (a field's name when the value is empty)
     * @param where how messages name the injection point, e.g. {@code field com.acme.Job.lock}
     */
    public record InjectionPoint(String name, Kind kind, String where) {}

    /**
     * One bean to add: the lock named {@code name} on {@code redisKey}.
     *
     * @param where the first injection point, for messages
     */
    public record NamedLock(String name, Kind kind, LockType type, String redisKey, String where) {

        public Object create(RedissonClient client) {
            switch (kind) {
                case READ_WRITE:
                    return client.getReadWriteLock(redisKey);
                case FENCED:
                    return client.getFencedLock(redisKey);
                case LOCK:
                default:
                    return LockKind.of(type).lock(client, redisKey);
            }
        }
    }

    public record Result(List<NamedLock> locks, List<String> problems) {}

    private NamedLocks() {}

    /** Plans one bean per (name, kind), sorted by name, and reports every misuse. */
    public static Result plan(List<InjectionPoint> points, PadlockSettings global, ConfigView config) {
        List<String> problems = new ArrayList<>();
        Map<String, Map<Kind, List<InjectionPoint>>> byName = new TreeMap<>();
        for (InjectionPoint p : points) {
            String name = p.name() == null ? "" : p.name().trim();
            if (name.isEmpty()) {
                problems.add("Invalid @Named " + p.kind().simpleName() + " injection point " + p.where()
                        + ": the lock name is empty. Name it, as in @Inject @Named(\"orders\") "
                        + p.kind().simpleName()
                        + " ordersLock.");
                continue;
            }
            if (name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
                problems.add("Invalid @Named(\"" + name + "\") " + p.kind().simpleName() + " injection point "
                        + p.where() + ": '{' and '}' would make Redis Cluster hash Redisson's side keys of the lock"
                        + " to other slots than the lock. Remove the braces.");
                continue;
            }
            byName.computeIfAbsent(name, n -> new TreeMap<>())
                    .computeIfAbsent(p.kind(), k -> new ArrayList<>())
                    .add(p);
        }
        List<NamedLock> locks = new ArrayList<>();
        byName.forEach((name, kinds) -> {
            if (kinds.size() > 1) {
                problems.add("Invalid @Named(\"" + name + "\") lock injection points: "
                        + kinds.entrySet().stream()
                                .map(e -> e.getKey().simpleName() + " at "
                                        + e.getValue().get(0).where())
                                .collect(Collectors.joining(" and "))
                        + " would share the Redis key " + global.keyPrefix() + name
                        + " as different structures. Give each kind of lock its own name.");
                return;
            }
            Kind kind = kinds.keySet().iterator().next();
            InjectionPoint first = kinds.get(kind).get(0);
            LockType type = type(name, kind, first, config, problems);
            locks.add(new NamedLock(name, kind, type, global.keyPrefix() + name, first.where()));
        });
        return new Result(List.copyOf(locks), List.copyOf(problems));
    }

    private static LockType type(
            String name, Kind kind, InjectionPoint where, ConfigView config, List<String> problems) {
        LockType fallback = kind == Kind.FENCED ? LockType.FENCED : LockType.REENTRANT;
        Optional<Map.Entry<String, String>> setting = config.perLock(name, "type");
        if (setting.isEmpty()) {
            return fallback;
        }
        String value = setting.get().getValue().trim().toUpperCase(Locale.ROOT);
        LockType type = null;
        for (LockType t : LockType.values()) {
            if (t.name().equals(value)) {
                type = t;
            }
        }
        if (type == null || !kind.configurable.contains(type)) {
            String allowed = kind.configurable.isEmpty()
                    ? "Remove it: an " + kind.simpleName() + " has no type to choose (use readLock() or writeLock())"
                    : "Use one of "
                            + kind.configurable.stream()
                                    .map(t -> t.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", "));
            problems.add("Invalid " + setting.get().getKey() + " for the " + kind.simpleName() + " injected at "
                    + where.where() + ": '" + setting.get().getValue() + "' does not apply. " + allowed + ".");
            return fallback;
        }
        return type;
    }
}
