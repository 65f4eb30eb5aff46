package dev.padlock.core.shape;

import java.lang.reflect.Modifier;
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

    /** Whether a container can intercept it: see {@link #interceptable(int)}. */
    boolean isInterceptable();

    /**
     * The one rule for which methods a container intercepts, over reflection's and Jandex's modifier flags alike:
     * not private, static or final.
     */
    static boolean interceptable(int modifiers) {
        return !Modifier.isPrivate(modifiers) && !Modifier.isStatic(modifiers) && !Modifier.isFinal(modifiers);
    }

    /**
     * Whether an EJB timer service calls it: annotated {@code jakarta.ejb.Schedule}, {@code Schedules} or
     * {@code Timeout} (named, so that no EJB API is needed). A timer callback goes through {@code @AroundTimeout}
     * interceptors only, so {@code @Locked}, an {@code @AroundInvoke} interceptor, never runs around it. Only reflection
     * sees them; Quarkus has no EJB timers.
     */
    default boolean isTimerCallback() {
        return false;
    }

    /** {@code com.acme.Inventory#reserve(String, int)}: how every message names the method. */
    default String display() {
        return declaringClass() + "#" + name()
                + parameters().stream().map(p -> p.type().simpleName()).collect(Collectors.joining(", ", "(", ")"));
    }

    /** A parameter; {@code name} is {@code null} when the class was compiled without {@code -parameters}. */
    record Parameter(String name, TypeShape type) {}
}
