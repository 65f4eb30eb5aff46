package dev.padlock.quarkus.runtime.internal;

import io.quarkus.runtime.annotations.RecordableConstructor;

/** A {@code @Named} lock injection point the build found, recorded for run time. */
public final class NamedLockPoint {

    private final String name;
    private final String kind;
    private final String where;

    /** @param kind a {@code NamedLocks.Kind} name */
    @RecordableConstructor
    public NamedLockPoint(String name, String kind, String where) {
        this.name = name;
        this.kind = kind;
        this.where = where;
    }

    public String getName() {
        return name;
    }

    public String getKind() {
        return kind;
    }

    public String getWhere() {
        return where;
    }
}
