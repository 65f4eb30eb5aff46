package dev.padlock.core.key;

import dev.padlock.core.config.Problems;
import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.PropertyRule;
import dev.padlock.core.shape.TypeShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Binds the key templates of one {@code @Locked} method to its parameters at deployment, and refuses what would
 * not render a stable key: a placeholder that names no parameter or property, or a value whose
 * {@code toString()} differs between equal arguments. Every problem is about {@code @Locked.key}.
 */
public final class KeyBinder {

    private final MethodShape method;
    private final Problems problems;

    public KeyBinder(MethodShape method, Problems problems) {
        this.method = method;
        this.problems = problems;
    }

    /** The template bound to parameter positions; empty after a problem. */
    public Optional<BoundTemplate> bind(String source) {
        KeyTemplate template;
        try {
            template = KeyTemplate.parse(source);
        } catch (IllegalArgumentException e) {
            invalid(e.getMessage(), "Write placeholders as {name}, {0} or {name.property}");
            return Optional.empty();
        }
        List<Integer> indexes = new ArrayList<>();
        for (KeyTemplate.Placeholder p : template.placeholders()) {
            Optional<Integer> index = parameterIndex(p);
            if (index.isEmpty() || !followPath(p, index.get())) {
                return Optional.empty();
            }
            indexes.add(index.get());
        }
        return Optional.of(new BoundTemplate(template, List.copyOf(indexes)));
    }

    private Optional<Integer> parameterIndex(KeyTemplate.Placeholder p) {
        if (method.parameters().isEmpty()) {
            invalid(
                    p.text() + " refers to an argument, but the method has no parameters",
                    "Remove the key, or lock on a constant lock name with value");
            return Optional.empty();
        }
        return p.isPositional() ? positionalIndex(p) : namedIndex(p);
    }

    private Optional<Integer> positionalIndex(KeyTemplate.Placeholder p) {
        int count = method.parameters().size();
        int index;
        try {
            index = Integer.parseInt(p.root());
        } catch (NumberFormatException e) {
            index = Integer.MAX_VALUE;
        }
        if (index >= count) {
            invalid(
                    p.text() + " is out of range: the method has " + count + " parameter(s)",
                    "Use {0} to {" + (count - 1) + "}");
            return Optional.empty();
        }
        return Optional.of(index);
    }

    private Optional<Integer> namedIndex(KeyTemplate.Placeholder p) {
        List<MethodShape.Parameter> params = method.parameters();
        if (params.stream().anyMatch(param -> param.name() == null)) {
            invalid(
                    p.text() + " names a parameter, but " + method.declaringClass()
                            + " was compiled without parameter names",
                    "Compile with -parameters (maven-compiler-plugin <parameters>true</parameters>, Gradle"
                            + " options.compilerArgs << '-parameters'), or refer to it by position such as {0}");
            return Optional.empty();
        }
        for (int i = 0; i < params.size(); i++) {
            if (params.get(i).name().equals(p.root())) {
                return Optional.of(i);
            }
        }
        invalid(
                p.text() + " names no parameter of the method",
                "Use one of "
                        + params.stream().map(MethodShape.Parameter::name).collect(Collectors.joining(", "))
                        + ", or a position such as {0}");
        return Optional.empty();
    }

    private boolean followPath(KeyTemplate.Placeholder p, int index) {
        TypeShape current = method.parameters().get(index).type();
        String reached = p.root();
        for (String property : p.path()) {
            if (current.isPrimitive()) {
                invalid(
                        p.text() + ": " + reached + " is a " + current.name() + ", which has no properties",
                        "Stop the path at " + reached);
                return false;
            }
            Optional<? extends TypeShape> next = current.property(property);
            if (next.isEmpty()) {
                invalid(
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
        Optional<Unstable> unstable = unstable(p.text(), type, false, property -> subPath(p, property));
        unstable.ifPresent(u -> invalid(u.reason(), u.fix()));
        return unstable.isEmpty();
    }

    /** Why a value of some type would not render one key for equal values, and what to lock on instead. */
    public record Unstable(String reason, String fix) {}

    /**
     * The one rule for keys that render unstably, for a declared type at deployment and for the class of a value
     * handed to {@code Locks} at run time.
     *
     * @param what how the message names the value, e.g. <code>{order.placed}</code>
     * @param valueClass whether {@code type} is the class of a value at hand rather than a declared type, so that
     *     {@code Object} is a plain object and not "anything"
     * @param property how the message names a property of the value to lock on instead
     */
    public static Optional<Unstable> unstable(
            String what, TypeShape type, boolean valueClass, UnaryOperator<String> property) {
        if (type.isPrimitive()) {
            return Optional.empty();
        }
        if (type.isArray()) {
            return Optional.of(new Unstable(
                    what + " is a " + type.simpleName() + ", whose toString() is an identity hash (such as"
                            + " [Ljava.lang.String;@1b6d3586) that differs for every array, so equal arguments"
                            + " would not share a lock",
                    "Pass a List, or lock on an element or a property of the array"));
        }
        if (type.isAssignableTo("java.util.Date") || type.isAssignableTo("java.util.Calendar")) {
            boolean date = type.isAssignableTo("java.util.Date");
            return Optional.of(new Unstable(
                    what + " is a " + type.name() + ", whose toString() depends on the JVM's time zone"
                            + (date ? " and drops the milliseconds" : " and lists every calendar field")
                            + ", so two JVMs can render different keys for one instant",
                    "Lock on " + property.apply(date ? "time" : "timeInMillis")
                            + " (milliseconds since the epoch), or pass an Instant or another java.time type"));
        }
        if (isUnorderedCollection(type)) {
            return Optional.of(new Unstable(
                    what + " is a " + type.name() + ", whose toString() lists its elements in iteration"
                            + " order, which can differ between equal collections and across JVMs, so equal"
                            + " arguments would not share a lock",
                    "Pass a List or a sorted collection (TreeSet, TreeMap), or lock on each element with a"
                            + " template of its own"));
        }
        if (!valueClass && (type.name().equals("java.lang.Object") || type.isAbstract())) {
            return Optional.empty();
        }
        if (type.toStringSource() == TypeShape.ToStringSource.OBJECT) {
            String id = type.property("id").isPresent() ? "id" : "<property>";
            return Optional.of(new Unstable(
                    what + " is a " + type.name() + ", which inherits Object.toString(): an identity hash"
                            + " that differs for every instance, so equal values would not share a lock",
                    "Lock on a property such as " + property.apply(id) + ", or give " + type.simpleName()
                            + " a toString() built from the fields that identify it"));
        }
        return Optional.empty();
    }

    /**
     * Set and Map promise equality whatever the order, but toString() follows iteration order: hash order (which
     * for enums and other identity-hashed elements differs across JVMs) or insertion order, so equal sets can
     * render different keys. The interfaces themselves are refused too, as most of their values are hash-based.
     * Sorted and enum collections iterate in a defined order, and a List's order is part of its equality; a plain
     * Collection promises nothing and passes unjudged.
     */
    private static boolean isUnorderedCollection(TypeShape type) {
        return (type.isAssignableTo("java.util.Set") || type.isAssignableTo("java.util.Map"))
                && !type.isAssignableTo("java.util.SortedSet")
                && !type.isAssignableTo("java.util.SortedMap")
                && !type.isAssignableTo("java.util.EnumSet")
                && !type.isAssignableTo("java.util.EnumMap");
    }

    private static String subPath(KeyTemplate.Placeholder p, String property) {
        return "{" + String.join(".", p.expression()) + "." + property + "}";
    }

    private void invalid(String reason, String fix) {
        problems.invalidMember(method.display(), "key", reason, fix);
    }
}
