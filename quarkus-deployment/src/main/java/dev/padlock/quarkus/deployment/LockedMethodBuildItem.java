package dev.padlock.quarkus.deployment;

import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedSpec;
import io.quarkus.builder.item.MultiBuildItem;
import java.util.List;
import java.util.SortedSet;
import org.jboss.jandex.AnnotationInstance;

/**
 * One valid {@code @Locked} method ArC intercepts: where it is, its effective binding, and what a native image
 * must keep reflectively for it. The start step records it, the native step registers it.
 */
public final class LockedMethodBuildItem extends MultiBuildItem {

    private final String id;
    private final String declaringClass;
    private final String name;
    private final List<String> parameterTypes;
    private final List<String> parameterNames;
    private final AnnotationInstance binding;
    private final LockedSpec spec;
    private final LockPlan plan;
    private final SortedSet<String> keyPathTypes;

    LockedMethodBuildItem(
            String id,
            String declaringClass,
            String name,
            List<String> parameterTypes,
            List<String> parameterNames,
            AnnotationInstance binding,
            LockedSpec spec,
            LockPlan plan,
            SortedSet<String> keyPathTypes) {
        this.id = id;
        this.declaringClass = declaringClass;
        this.name = name;
        this.parameterTypes = List.copyOf(parameterTypes);
        this.parameterNames = List.copyOf(parameterNames);
        this.binding = binding;
        this.spec = spec;
        this.plan = plan;
        this.keyPathTypes = keyPathTypes;
    }

    /** {@code Class#method(Type, ...)}, as messages name the method; unique, so it orders recorded output. */
    String id() {
        return id;
    }

    String declaringClass() {
        return declaringClass;
    }

    String name() {
        return name;
    }

    /** Binary names as {@code Class.forName} takes them, or primitive keywords. */
    List<String> parameterTypes() {
        return parameterTypes;
    }

    /** The names Jandex saw, {@code ""} where none. */
    List<String> parameterNames() {
        return parameterNames;
    }

    /** The {@code @Locked} instance ArC resolved (method, class, inherited or stereotype). */
    AnnotationInstance binding() {
        return binding;
    }

    /** The binding's members, defaults filled in. */
    LockedSpec spec() {
        return spec;
    }

    /** What the rules made of it with the build's configuration (run time reads the configuration again). */
    LockPlan plan() {
        return plan;
    }

    /** Classes whose getters, record components or fields this method's key templates read at run time. */
    SortedSet<String> keyPathTypes() {
        return keyPathTypes;
    }
}
