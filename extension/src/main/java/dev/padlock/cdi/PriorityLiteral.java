package dev.padlock.cdi;

import jakarta.annotation.Priority;
import jakarta.enterprise.util.AnnotationLiteral;

/** A {@code @Priority} instance, to give the interceptor the configured priority. */
final class PriorityLiteral extends AnnotationLiteral<Priority> implements Priority {
    private static final long serialVersionUID = 1L;

    private final int value;

    PriorityLiteral(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
