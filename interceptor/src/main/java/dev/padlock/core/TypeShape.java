package dev.padlock.core;

import java.util.Optional;

/** A neutral description of a type, enough to validate key templates and return types. */
public interface TypeShape {

    /** Fully qualified name, or the keyword for primitives and {@code void}. */
    String name();

    default String simpleName() {
        String n = name();
        int dot = Math.max(n.lastIndexOf('.'), n.lastIndexOf('$'));
        return n.substring(dot + 1);
    }

    /** True for the eight primitives; false for {@code void}. */
    boolean isPrimitive();

    boolean isVoid();

    /** Whether this type is, extends or implements the named class or interface. */
    boolean isAssignableTo(String className);

    /**
     * The type reached by following {@code property} the way key templates do: a getter {@code getX()} or
     * {@code isX()}, else a record component {@code x()}, else a public field {@code x} (see
     * {@link PropertyRule}). Empty when there is none.
     */
    Optional<? extends TypeShape> property(String property);
}
