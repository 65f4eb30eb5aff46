package dev.padlock.quarkus.deployment;

import dev.padlock.quarkus.runtime.internal.NamedLockPoint;
import io.quarkus.builder.item.SimpleBuildItem;
import java.util.List;

/** Every {@code @Named} RLock / RReadWriteLock / RFencedLock injection point in the bean archive, sorted. */
public final class NamedLockPointsBuildItem extends SimpleBuildItem {

    private final List<NamedLockPoint> points;

    NamedLockPointsBuildItem(List<NamedLockPoint> points) {
        this.points = points;
    }

    public List<NamedLockPoint> points() {
        return points;
    }
}
