package dev.padlock.core;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/** How a method's result relates to the time its lock must be held, and what SKIP returns for it. */
public enum ReturnKind {
    /** The work is done when the method returns; SKIP returns {@code null}. */
    BLOCKING(null),
    OPTIONAL(Optional.empty()),
    OPTIONAL_INT(OptionalInt.empty()),
    OPTIONAL_LONG(OptionalLong.empty()),
    OPTIONAL_DOUBLE(OptionalDouble.empty()),
    /** {@code CompletionStage} or {@code CompletableFuture}: the lock is held until the stage completes. */
    COMPLETION_STAGE(null),
    /** A primitive: SKIP has nothing to return. */
    PRIMITIVE(null);

    private final Object emptyResult;

    ReturnKind(Object emptyResult) {
        this.emptyResult = emptyResult;
    }

    /** The result a skipped call returns. A fresh completed stage each time, since callers may complete or cancel it. */
    public Object emptyResult() {
        return this == COMPLETION_STAGE ? CompletableFuture.completedFuture(null) : emptyResult;
    }

    /** Reactive types whose work runs after the method returns and that Padlock does not hold locks across yet. */
    static final java.util.List<String> UNSUPPORTED_DEFERRED = java.util.List.of(
            "io.smallrye.mutiny.Uni",
            "io.smallrye.mutiny.Multi",
            "org.reactivestreams.Publisher",
            "java.util.concurrent.Flow$Publisher");

    static ReturnKind of(TypeShape type) {
        if (type.isPrimitive()) {
            return PRIMITIVE;
        }
        switch (type.name()) {
            case "java.util.Optional":
                return OPTIONAL;
            case "java.util.OptionalInt":
                return OPTIONAL_INT;
            case "java.util.OptionalLong":
                return OPTIONAL_LONG;
            case "java.util.OptionalDouble":
                return OPTIONAL_DOUBLE;
            case "java.util.concurrent.CompletionStage":
            case "java.util.concurrent.CompletableFuture":
                return COMPLETION_STAGE;
            default:
                return BLOCKING;
        }
    }
}
