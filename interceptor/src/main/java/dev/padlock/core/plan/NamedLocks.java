package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.EnumSetting;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.config.SettingValues;
import dev.padlock.core.redis.LockKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;

/**
 * The rules for {@code @Inject @Named("x") RLock / RReadWriteLock / RFencedLock} injection points, written once
 * for the portable extension and the Quarkus build step: each distinct name becomes one bean on Redis key
 * {@code <prefix>x}, typed by {@code padlock.locks."x".type}.
 */
public final class NamedLocks {

    /**
     * The injectable lock types, each with the lock types {@code padlock.locks."x".type} may give it, read from
     * {@link LockKind}: one bean is one family's lock on its key, so an {@code RLock} may be any type that is a family
     * of its own, and an {@code RReadWriteLock} has no type to choose (READ and WRITE are its two sides).
     */
    public enum Kind {
        LOCK(RLock.class, LockType.REENTRANT, type -> LockKind.of(type).family().equals(type.name())),
        READ_WRITE(RReadWriteLock.class, LockType.WRITE, type -> false),
        FENCED(RFencedLock.class, LockType.FENCED, type -> LockKind.of(type).fenced());

        private final Class<?> type;
        /** The type when none is configured; for an {@code RReadWriteLock}, WRITE stands for the pair. */
        private final LockType fallback;

        private final Set<LockType> configurable = EnumSet.noneOf(LockType.class);

        Kind(Class<?> type, LockType fallback, Predicate<LockType> configurable) {
            this.type = type;
            this.fallback = fallback;
            for (LockType t : LockType.values()) {
                if (configurable.test(t)) {
                    this.configurable.add(t);
                }
            }
        }

        /** The injected interface: the type of the bean to declare. */
        public Class<?> type() {
            return type;
        }

        public String simpleName() {
            return type.getSimpleName();
        }

        /** The kind of an injection point's raw type, by name (Jandex has no classes). */
        public static Optional<Kind> ofTypeName(String name) {
            for (Kind k : values()) {
                if (k.type.getName().equals(name)) {
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
     * @param type the type of its lock; for an {@code RReadWriteLock}, WRITE, which names the family of both sides
     * @param where the first injection point, for messages
     */
    public record NamedLock(String name, Kind kind, LockType type, String redisKey, String where) {

        public Object create(RedissonClient client) {
            return switch (kind) {
                case READ_WRITE -> client.getReadWriteLock(redisKey);
                case LOCK, FENCED -> LockKind.of(type).lock(client, redisKey);
            };
        }
    }

    public record Result(List<NamedLock> locks, List<String> problems) {}

    private NamedLocks() {}

    /** Plans one bean per (name, kind), sorted by name, and reports every misuse. */
    public static Result plan(List<InjectionPoint> points, GlobalDefaults global, ConfigView config) {
        Problems problems = new Problems();
        Map<String, Map<Kind, List<InjectionPoint>>> byName = new TreeMap<>();
        for (InjectionPoint p : points) {
            String name = p.name() == null ? "" : p.name().trim();
            String simple = p.kind().simpleName();
            if (name.isEmpty()) {
                problems.invalid(
                        "@Named " + simple + " injection point " + p.where(),
                        "the lock name is empty",
                        "Name it, as in @Inject @Named(\"orders\") " + simple + " ordersLock");
                continue;
            }
            if (!SettingValues.hasNoHashTag(
                    "@Named(\"" + name + "\") " + simple + " injection point " + p.where(), name, problems)) {
                continue;
            }
            byName.computeIfAbsent(name, n -> new TreeMap<>())
                    .computeIfAbsent(p.kind(), k -> new ArrayList<>())
                    .add(p);
        }
        List<NamedLock> locks = new ArrayList<>();
        byName.forEach((name, kinds) -> {
            if (kinds.size() > 1) {
                problems.invalid(
                        "@Named(\"" + name + "\") lock injection points",
                        kinds.entrySet().stream()
                                        .map(e -> e.getKey().simpleName() + " at "
                                                + e.getValue().get(0).where())
                                        .collect(Collectors.joining(" and "))
                                + " would share the Redis key " + global.keyPrefix() + name
                                + " as different structures",
                        "Give each kind of lock its own name");
                return;
            }
            Kind kind = kinds.keySet().iterator().next();
            InjectionPoint first = kinds.get(kind).get(0);
            LockType type = type(name, kind, first, config, problems);
            locks.add(new NamedLock(name, kind, type, global.keyPrefix() + name, first.where()));
        });
        return new Result(List.copyOf(locks), problems.list());
    }

    /** {@code padlock.locks."<name>".type}, where the kind of lock leaves a type to choose. */
    private static LockType type(String name, Kind kind, InjectionPoint where, ConfigView config, Problems problems) {
        LockType fallback = kind.fallback;
        Optional<Map.Entry<String, String>> setting = config.perLock(name, ConfigKeys.TYPE);
        if (setting.isEmpty()) {
            return fallback;
        }
        Optional<LockType> type = EnumSetting.LOCK_TYPE.parse(setting.get().getValue());
        if (type.isPresent() && kind.configurable.contains(type.get())) {
            return type.get();
        }
        problems.invalid(
                setting.get().getKey() + " for the " + kind.simpleName() + " injected at " + where.where(),
                "'" + setting.get().getValue() + "' does not apply",
                kind.configurable.isEmpty()
                        ? "Remove it: an " + kind.simpleName()
                                + " has no type to choose (use readLock() or writeLock())"
                        : "Use one of " + EnumSetting.choices(kind.configurable));
        return fallback;
    }
}
