package dev.padlock.core.shape;

import java.util.Optional;

/** A neutral description of a type, enough to validate key templates and return types. */
public interface TypeShape {

    /** Fully qualified name, or the keyword for primitives and {@code void}. */
    String name();

    /** {@code String}, {@code Order}, {@code int[]}, {@code String[][]}: how messages name the type. */
    default String simpleName() {
        String n = name();
        int dimensions = 0;
        while (dimensions < n.length() && n.charAt(dimensions) == '[') {
            dimensions++;
        }
        if (dimensions > 0) {
            n = elementName(n.substring(dimensions));
        }
        int dot = Math.max(n.lastIndexOf('.'), n.lastIndexOf('$'));
        return n.substring(dot + 1) + "[]".repeat(dimensions);
    }

    /** The element of an array descriptor such as {@code Ljava.lang.String;} or {@code I}. */
    private static String elementName(String descriptor) {
        return switch (descriptor.charAt(0)) {
            case 'L' -> descriptor.substring(1, descriptor.length() - 1);
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            case 'D' -> "double";
            default -> descriptor;
        };
    }

    /** True for the eight primitives; false for {@code void}. */
    boolean isPrimitive();

    boolean isArray();

    /** An interface or an abstract class: its values are of subclasses that deployment does not see. */
    boolean isAbstract();

    /** Where {@code toString()} of this type's values comes from, as far as the type itself tells. */
    ToStringSource toStringSource();

    /** See {@link #toStringSource()}. */
    enum ToStringSource {
        /** The class or a superclass below {@code Object} declares it (records and enums do). */
        DECLARED,
        /** Inherited from {@code Object}: an identity hash. */
        OBJECT,
        /** An interface, a primitive, an array, or a class that cannot be looked at. */
        UNKNOWN
    }

    /** Whether this type is, extends or implements the named class or interface. */
    boolean isAssignableTo(String className);

    /**
     * The type reached by following {@code property} the way key templates do: a getter {@code getX()} or
     * {@code isX()}, else a record component {@code x()}, else a public field {@code x} (see
     * {@link PropertyRule}). Empty when there is none.
     */
    Optional<? extends TypeShape> property(String property);
}
