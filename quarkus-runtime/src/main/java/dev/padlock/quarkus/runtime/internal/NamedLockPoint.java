package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.plan.NamedLocks;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** A {@code @Named} lock injection point the build found, recorded for run time. */
public final class NamedLockPoint {

    private final String name;
    private final NamedLocks.Kind kind;
    private final String where;

    @RecordableConstructor
    public NamedLockPoint(String name, NamedLocks.Kind kind, String where) {
        this.name = name;
        this.kind = kind;
        this.where = where;
    }

    public String getName() {
        return name;
    }

    public NamedLocks.Kind getKind() {
        return kind;
    }

    public String getWhere() {
        return where;
    }

    /** The point in the shared rules' terms, which plan the named locks at build time and again at start. */
    public NamedLocks.InjectionPoint injectionPoint() {
        return new NamedLocks.InjectionPoint(name, kind, where);
    }
}
