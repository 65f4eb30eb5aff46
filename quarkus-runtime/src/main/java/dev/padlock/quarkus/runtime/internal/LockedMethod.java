package dev.padlock.quarkus.runtime.internal;

import io.quarkus.runtime.annotations.RecordableConstructor;
import java.util.List;

/**
 * A {@code @Locked} method as the build found it in Jandex, recorded for run time: where it is and the
 * members of its effective binding (method, class, inherited or stereotype), all as strings.
 */
public final class LockedMethod {

    private final String declaringClass;
    private final String name;
    private final List<String> parameterTypes;
    private final List<String> parameterNames;
    private final String value;
    private final List<String> key;
    private final String type;
    private final String waitTime;
    private final String leaseTime;
    private final String onFailure;

    /**
     * @param parameterTypes binary names as {@code Class.forName} takes them, or primitive keywords
     * @param parameterNames the names Jandex saw, {@code ""} where none
     */
    @RecordableConstructor
    public LockedMethod(
            String declaringClass,
            String name,
            List<String> parameterTypes,
            List<String> parameterNames,
            String value,
            List<String> key,
            String type,
            String waitTime,
            String leaseTime,
            String onFailure) {
        this.declaringClass = declaringClass;
        this.name = name;
        this.parameterTypes = parameterTypes;
        this.parameterNames = parameterNames;
        this.value = value;
        this.key = key;
        this.type = type;
        this.waitTime = waitTime;
        this.leaseTime = leaseTime;
        this.onFailure = onFailure;
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

    public String getValue() {
        return value;
    }

    public List<String> getKey() {
        return key;
    }

    public String getType() {
        return type;
    }

    public String getWaitTime() {
        return waitTime;
    }

    public String getLeaseTime() {
        return leaseTime;
    }

    public String getOnFailure() {
        return onFailure;
    }
}
