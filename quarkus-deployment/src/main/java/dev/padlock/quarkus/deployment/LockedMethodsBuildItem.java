package dev.padlock.quarkus.deployment;

import dev.padlock.quarkus.runtime.internal.LockedMethod;
import io.quarkus.builder.item.SimpleBuildItem;
import java.util.List;

/** Every valid {@code @Locked} method of the application, in a stable order, with its reflection needs. */
public final class LockedMethodsBuildItem extends SimpleBuildItem {

    private final List<LockedMethod> methods;
    private final List<String> keyPathTypes;

    LockedMethodsBuildItem(List<LockedMethod> methods, List<String> keyPathTypes) {
        this.methods = methods;
        this.keyPathTypes = keyPathTypes;
    }

    public List<LockedMethod> methods() {
        return methods;
    }

    /** Classes whose getters, record components or fields key templates read at run time, sorted. */
    public List<String> keyPathTypes() {
        return keyPathTypes;
    }
}
