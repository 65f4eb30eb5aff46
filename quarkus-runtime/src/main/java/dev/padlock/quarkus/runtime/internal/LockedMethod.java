package dev.padlock.quarkus.runtime.internal;

import dev.padlock.Locked;
import io.quarkus.runtime.annotations.RecordableConstructor;
import java.util.List;

/**
 * A {@code @Locked} method as the build found it in Jandex, recorded for run time: where it is, and its
 * effective binding (method, class, inherited or stereotype) as the annotation itself, so run time reads its
 * members, defaults included, the way the portable extension does.
 */
public final class LockedMethod {

    private final String declaringClass;
    private final String name;
    private final List<String> parameterTypes;
    private final List<String> parameterNames;
    private final Locked locked;

    /**
     * @param parameterTypes binary names as {@code Class.forName} takes them, or primitive keywords
     * @param parameterNames the names Jandex saw, {@code ""} where none
     * @param locked the binding, recorded as an annotation proxy
     */
    @RecordableConstructor
    public LockedMethod(
            String declaringClass,
            String name,
            List<String> parameterTypes,
            List<String> parameterNames,
            Locked locked) {
        this.declaringClass = declaringClass;
        this.name = name;
        this.parameterTypes = parameterTypes;
        this.parameterNames = parameterNames;
        this.locked = locked;
    }

    public String getDeclaringClass() {
        return declaringClass;
    }

    public String getName() {
        return name;
    }

    public List<String> getParameterTypes() {
        return parameterTypes;
    }

    public List<String> getParameterNames() {
        return parameterNames;
    }

    public Locked getLocked() {
        return locked;
    }
}
