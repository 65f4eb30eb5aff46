package dev.padlock.core.shape;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A neutral description of a method, so the same validation runs on reflection (portable extension) and on
 * Jandex (Quarkus build step) without loading classes.
 */
public interface MethodShape {

    /** Fully qualified name of the class that declares the method. */
    String declaringClass();

    String name();

    List<Parameter> parameters();

    TypeShape returnType();

    /** Whether a container can intercept it: not private, static or final. */
    boolean isInterceptable();

    /** {@code com.acme.Inventory#reserve(String, int)}: how every message names the method. */
    default String display() {
        return declaringClass() + "#" + name()
                + parameters().stream().map(p -> p.type().simpleName()).collect(Collectors.joining(", ", "(", ")"));
    }

    /** A parameter; {@code name} is {@code null} when the class was compiled without {@code -parameters}. */
    record Parameter(String name, TypeShape type) {}
}
