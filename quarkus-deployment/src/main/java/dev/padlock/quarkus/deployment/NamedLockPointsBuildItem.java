package dev.padlock.quarkus.deployment;

import dev.padlock.core.plan.NamedLocks;
import dev.padlock.quarkus.runtime.internal.NamedLockPoint;
import io.quarkus.builder.item.SimpleBuildItem;
import java.util.List;

/** Every {@code @Named} RLock / RReadWriteLock / RFencedLock injection point in the bean archive, sorted. */
public final class NamedLockPointsBuildItem extends SimpleBuildItem {

    private final List<NamedLockPoint> points;

    NamedLockPointsBuildItem(List<NamedLockPoint> points) {
        this.points = points;
    }

    /** As recorded for run time. */
    public List<NamedLockPoint> points() {
        return points;
    }

    /** As the shared rules take them. */
    List<NamedLocks.InjectionPoint> injectionPoints() {
        return points.stream().map(NamedLockPoint::injectionPoint).toList();
    }
}
