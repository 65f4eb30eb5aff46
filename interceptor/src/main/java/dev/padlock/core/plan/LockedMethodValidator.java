package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.config.PadlockSettings;
import dev.padlock.core.key.BoundTemplate;
import dev.padlock.core.key.KeyTemplate;
import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.PropertyRule;
import dev.padlock.core.shape.TypeShape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every rule about a {@code @Locked} method and every message that breaks one, written once for the portable
 * extension and the Quarkus build step. Messages read {@code Invalid @Locked.<member> on <Class>#<method>:
 * <reason>. <fix>}.
 */
public final class LockedMethodValidator {

    /** The outcome: a plan when {@code problems} is empty. */
    public record Result(LockPlan plan, List<String> problems) {
        public boolean isValid() {
            return problems.isEmpty();
        }
    }

    private final PadlockSettings global;
    private final ConfigView config;

    public LockedMethodValidator(PadlockSettings global, ConfigView config) {
        this.global = global;
        this.config = config;
    }

    public Result validate(MethodShape method, LockedSpec spec) {
        return new Check(method, spec).run();
    }

    /**
     * The message when one inherited method is bound differently in two beans: the integrations key operations
     * by method, so it must have one binding.
     */
    public static String inheritedConflict(String method, String lockName, String otherLockName) {
        return "Invalid @Locked on " + method + ": the method is inherited by beans whose class-level @Locked"
                + " differ (" + lockName + " vs " + otherLockName + "). Override the method in the subclass and"
                + " annotate it there.";
    }

    /** The default lock name of a method: {@code <fully.qualified.DeclaringClass>#<method>}. */
    public static String defaultLockName(MethodShape method) {
        return method.declaringClass() + "#" + method.name();
    }

    private final class Check {
        private final MethodShape method;
        private final LockedSpec spec;
        private final List<String> problems = new ArrayList<>();

        Check(MethodShape method, LockedSpec spec) {
            this.method = method;
            this.spec = spec;
        }

        Result run() {
            if (!method.isInterceptable()) {
                problems.add("Invalid @Locked on " + method.display() + ": a private, static or final method is"
                        + " not intercepted, so it would run without the lock. Make it a non-final instance method"
                        + " that callers reach through the bean.");
                return new Result(null, List.copyOf(problems));
            }
            String name = spec.value().isBlank()
                    ? defaultLockName(method)
                    : spec.value().trim();
            if (name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
                member(
                        "value",
                        "'" + name + "' contains '{' or '}', which Redis Cluster reads as a hash tag and which would"
                                + " put Redisson's side keys of the lock in another slot than the lock",
                        "Remove the braces; keys rendered from arguments are escaped for you");
            }
            List<BoundTemplate> keys = new ArrayList<>();
            for (String source : spec.key()) {
                bind(source).ifPresent(keys::add);
            }
            LockType type =
                    perLock(name, "type").map(e -> enumValue(LockType.class, e)).orElse(spec.type());
            Duration wait = perLock(name, "wait-time")
                    .map(e -> PadlockSettings.duration(
                            e.getKey() + " (lock of " + method.display() + ")", e.getValue(), problems))
                    .orElseGet(() -> spec.waitTime().isBlank()
                            ? global.waitTime()
                            : memberDuration("waitTime", spec.waitTime()));
            // Not Optional.map: a per-lock lease of null (the watchdog) must still win over the annotation.
            Optional<Map.Entry<String, String>> leaseKey = perLock(name, "lease-time");
            Duration lease = leaseKey.isPresent()
                    ? PadlockSettings.lease(
                            leaseKey.get().getKey() + " (lock of " + method.display() + ")",
                            leaseKey.get().getValue(),
                            problems)
                    : spec.leaseTime().isBlank() ? global.leaseTime() : memberLease(spec.leaseTime());
            Optional<Map.Entry<String, String>> failureKey = perLock(name, "on-failure");
            OnFailure onFailure =
                    failureKey.map(e -> enumValue(OnFailure.class, e)).orElse(spec.onFailure());
            LeaseLossPolicy onLeaseLost = perLock(name, "on-lease-lost")
                    .map(e -> PadlockSettings.leaseLossPolicy(
                            e.getKey() + " (lock of " + method.display() + ")", e.getValue(), problems))
                    .orElse(global.onLeaseLost());

            ReturnKind returnKind = returnKind();
            if (onFailure == OnFailure.SKIP && returnKind == ReturnKind.PRIMITIVE) {
                String reason = "SKIP has nothing to return for the primitive return type "
                        + method.returnType().name();
                String fix = "Return a wrapper (e.g. "
                        + boxed(method.returnType().name()) + ", null when skipped), an Optional, or use THROW";
                if (failureKey.isPresent()) {
                    config(failureKey.get().getKey(), reason, fix);
                } else {
                    member("onFailure", reason, fix);
                }
            }
            if (!problems.isEmpty()) {
                return new Result(null, List.copyOf(problems));
            }
            LockSettings settings = new LockSettings(type, wait, lease, onFailure, onLeaseLost);
            LockPlan plan = new LockPlan(
                    method.display(), name, global.keyPrefix() + name, List.copyOf(keys), settings, returnKind);
            return new Result(plan, List.of());
        }

        private ReturnKind returnKind() {
            TypeShape returned = method.returnType();
            ReturnKind kind = ReturnKind.of(returned);
            if (kind == ReturnKind.BLOCKING) {
                for (String deferred : ReturnKind.DEFERRED) {
                    if (!returned.name().equals(deferred) && returned.isAssignableTo(deferred)) {
                        String simple = deferred.substring(deferred.lastIndexOf('.') + 1);
                        problems.add("Invalid @Locked on " + method.display() + ": it returns " + returned.name()
                                + ", a " + simple + " subtype whose work runs after the method returns. Declare"
                                + " the return type as CompletionStage, CompletableFuture, Uni, Multi or Publisher"
                                + " (held until the result completes), or a plain value.");
                        return kind;
                    }
                }
            }
            String missing = kind.missingLibrary(LockedMethodValidator.class.getClassLoader());
            if (missing != null) {
                problems.add("Invalid @Locked on " + method.display() + ": it returns " + returned.name()
                        + ", and Padlock holds locks across reactive types with Mutiny, which it cannot find."
                        + " Add the dependency " + missing + " next to Padlock.");
            }
            return kind;
        }

        private Optional<BoundTemplate> bind(String source) {
            KeyTemplate template;
            try {
                template = KeyTemplate.parse(source);
            } catch (IllegalArgumentException e) {
                member("key", e.getMessage(), "Write placeholders as {name}, {0} or {name.property}");
                return Optional.empty();
            }
            List<Integer> indexes = new ArrayList<>();
            for (KeyTemplate.Placeholder p : template.placeholders()) {
                Integer index = parameterIndex(p);
                if (index == null) {
                    return Optional.empty();
                }
                if (!followPath(p, index)) {
                    return Optional.empty();
                }
                indexes.add(index);
            }
            return Optional.of(new BoundTemplate(template, List.copyOf(indexes)));
        }

        private Integer parameterIndex(KeyTemplate.Placeholder p) {
            List<MethodShape.Parameter> params = method.parameters();
            if (params.isEmpty()) {
                member(
                        "key",
                        p.text() + " refers to an argument, but the method has no parameters",
                        "Remove the key, or lock on a constant lock name with value");
                return null;
            }
            if (p.isPositional()) {
                int index;
                try {
                    index = Integer.parseInt(p.root());
                } catch (NumberFormatException e) {
                    index = Integer.MAX_VALUE;
                }
                if (index >= params.size()) {
                    member(
                            "key",
                            p.text() + " is out of range: the method has " + params.size() + " parameter(s)",
                            "Use {0} to {" + (params.size() - 1) + "}");
                    return null;
                }
                return index;
            }
            boolean namesMissing = params.stream().anyMatch(param -> param.name() == null);
            if (namesMissing) {
                member(
                        "key",
                        p.text() + " names a parameter, but " + method.declaringClass()
                                + " was compiled without parameter names",
                        "Compile with -parameters (maven-compiler-plugin <parameters>true</parameters>, Gradle"
                                + " options.compilerArgs << '-parameters'), or refer to it by position such as {0}");
                return null;
            }
            for (int i = 0; i < params.size(); i++) {
                if (params.get(i).name().equals(p.root())) {
                    return i;
                }
            }
            member(
                    "key",
                    p.text() + " names no parameter of the method",
                    "Use one of "
                            + params.stream().map(MethodShape.Parameter::name).collect(Collectors.joining(", "))
                            + ", or a position such as {0}");
            return null;
        }

        private boolean followPath(KeyTemplate.Placeholder p, int index) {
            TypeShape current = method.parameters().get(index).type();
            String reached = p.root();
            for (String property : p.path()) {
                if (current.isPrimitive()) {
                    member(
                            "key",
                            p.text() + ": " + reached + " is a " + current.name() + ", which has no properties",
                            "Stop the path at " + reached);
                    return false;
                }
                Optional<? extends TypeShape> next = current.property(property);
                if (next.isEmpty()) {
                    member(
                            "key",
                            p.text() + ": " + PropertyRule.describeMissing(current, property),
                            "Fix the path, or add a public getter");
                    return false;
                }
                current = next.get();
                reached = reached + "." + property;
            }
            return rendersStably(p, current);
        }

        /**
         * A key is the value's {@code toString()}: equal arguments must render equal keys, in every JVM, or two
         * callers that mean one thing hold two locks. Only what the declared type proves unstable is refused:
         * values of an interface, an abstract class or {@code Object} come from classes deployment does not
         * see, so they pass (a {@code CharSequence} is usually a {@code String}).
         */
        private boolean rendersStably(KeyTemplate.Placeholder p, TypeShape type) {
            if (type.isPrimitive()) {
                return true;
            }
            if (type.isArray()) {
                member(
                        "key",
                        p.text() + " is a " + type.simpleName() + ", whose toString() is an identity hash (such as"
                                + " [Ljava.lang.String;@1b6d3586) that differs for every array, so equal arguments"
                                + " would not share a lock",
                        "Pass a List, or lock on an element or a property of the array");
                return false;
            }
            if (type.isAssignableTo("java.util.Date") || type.isAssignableTo("java.util.Calendar")) {
                boolean date = type.isAssignableTo("java.util.Date");
                member(
                        "key",
                        p.text() + " is a " + type.name() + ", whose toString() depends on the JVM's time zone"
                                + (date ? " and drops the milliseconds" : " and lists every calendar field")
                                + ", so two JVMs can render different keys for one instant",
                        "Lock on " + subPath(p, date ? "time" : "timeInMillis")
                                + " (milliseconds since the epoch), or pass an Instant or another java.time type");
                return false;
            }
            // Set and Map promise equality whatever the order, but toString() follows iteration order: hash
            // order (which for enums and other identity-hashed elements differs across JVMs) or insertion
            // order, so equal sets can render different keys. The interfaces themselves are refused too, as
            // most of their values are hash-based. Sorted and enum collections iterate in a defined order, and a
            // List's order is part of its equality; a plain Collection promises nothing and passes unjudged.
            if ((type.isAssignableTo("java.util.Set") || type.isAssignableTo("java.util.Map"))
                    && !type.isAssignableTo("java.util.SortedSet")
                    && !type.isAssignableTo("java.util.SortedMap")
                    && !type.isAssignableTo("java.util.EnumSet")
                    && !type.isAssignableTo("java.util.EnumMap")) {
                member(
                        "key",
                        p.text() + " is a " + type.name() + ", whose toString() lists its elements in iteration"
                                + " order, which can differ between equal collections and across JVMs, so equal"
                                + " arguments would not share a lock",
                        "Pass a List or a sorted collection (TreeSet, TreeMap), or lock on each element with a"
                                + " template of its own");
                return false;
            }
            if (type.name().equals("java.lang.Object") || type.isAbstract()) {
                return true;
            }
            if (type.toStringSource() == TypeShape.ToStringSource.OBJECT) {
                String property = type.property("id").isPresent() ? "id" : "<property>";
                member(
                        "key",
                        p.text() + " is a " + type.name() + ", which inherits Object.toString(): an identity hash"
                                + " that differs for every instance, so equal values would not share a lock",
                        "Lock on a property such as " + subPath(p, property) + ", or give " + type.simpleName()
                                + " a toString() built from the fields that identify it");
                return false;
            }
            return true;
        }

        private static String subPath(KeyTemplate.Placeholder p, String property) {
            return "{" + String.join(".", p.expression()) + "." + property + "}";
        }

        private Duration memberDuration(String member, String value) {
            try {
                return DurationText.parse(value);
            } catch (IllegalArgumentException e) {
                member(member, e.getMessage(), "Fix the value, or leave it empty to use padlock.wait-time");
                return PadlockSettings.DEFAULT_WAIT_TIME;
            }
        }

        private Duration memberLease(String value) {
            if (value.trim().equalsIgnoreCase(PadlockSettings.WATCHDOG)) {
                return null;
            }
            try {
                Duration d = DurationText.parse(value);
                String problem = DurationText.leaseProblem(value, d);
                if (problem != null) {
                    member(
                            "leaseTime",
                            problem,
                            "Set " + (d.isZero() ? "a positive lease" : "1ms or more")
                                    + ", or leave it empty so the watchdog renews the lock");
                    return null;
                }
                return d;
            } catch (IllegalArgumentException e) {
                member("leaseTime", e.getMessage(), "Fix the value, or leave it empty so the watchdog renews the lock");
                return null;
            }
        }

        private Optional<Map.Entry<String, String>> perLock(String lock, String property) {
            return config.perLock(lock, property);
        }

        private <E extends Enum<E>> E enumValue(Class<E> type, Map.Entry<String, String> setting) {
            String v = setting.getValue().trim().replace('-', '_').toUpperCase(Locale.ROOT);
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(v)) {
                    return constant;
                }
            }
            config(
                    setting.getKey(),
                    "'" + setting.getValue() + "' is not a " + type.getSimpleName(),
                    "Use one of "
                            + java.util.Arrays.stream(type.getEnumConstants())
                                    .map(c -> c.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", ")));
            return type.getEnumConstants()[0];
        }

        private void member(String member, String reason, String fix) {
            problems.add("Invalid @Locked." + member + " on " + method.display() + ": " + reason + ". " + fix + ".");
        }

        private void config(String key, String reason, String fix) {
            problems.add("Invalid " + key + " (lock of " + method.display() + "): " + reason + ". " + fix + ".");
        }
    }

    private static String boxed(String primitive) {
        switch (primitive) {
            case "int":
                return "Integer";
            case "char":
                return "Character";
            default:
                return Character.toUpperCase(primitive.charAt(0)) + primitive.substring(1);
        }
    }
}
