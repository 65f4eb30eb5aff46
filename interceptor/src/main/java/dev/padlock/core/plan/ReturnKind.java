package dev.padlock.core.plan;

import dev.padlock.core.config.Problems;
import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.TypeShape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/** How a method's result relates to the time its lock must be held, and what SKIP returns for it. */
public enum ReturnKind {
    /** The work is done when the method returns; SKIP returns {@code null}. */
    BLOCKING(null, End.ON_RETURN),
    OPTIONAL(Optional.empty(), End.ON_RETURN),
    OPTIONAL_INT(OptionalInt.empty(), End.ON_RETURN),
    OPTIONAL_LONG(OptionalLong.empty(), End.ON_RETURN),
    OPTIONAL_DOUBLE(OptionalDouble.empty(), End.ON_RETURN),
    /** {@code CompletionStage} or {@code CompletableFuture}: the lock is held until the stage completes. */
    COMPLETION_STAGE(null, End.WITH_STAGE),
    /** Mutiny {@code Uni}: locked from subscription until it emits, fails or is cancelled; SKIP emits null. */
    UNI(null, End.WITH_STREAM),
    /** Mutiny {@code Multi}: locked from subscription until it completes, fails or is cancelled; SKIP is empty. */
    MULTI(null, End.WITH_STREAM),
    /** {@code java.util.concurrent.Flow.Publisher}, held as a {@code Multi}. */
    FLOW_PUBLISHER(null, End.WITH_STREAM),
    /** {@code org.reactivestreams.Publisher}, held as a {@code Multi}. */
    REACTIVE_STREAMS_PUBLISHER(null, End.WITH_STREAM),
    /** A primitive: SKIP has nothing to return. */
    PRIMITIVE(null, End.ON_RETURN);

    /**
     * When a call's work ends, and so which operation runs it: each kind decides it here, once, so a new return type
     * does not compile until it says when its work ends.
     */
    public enum End {
        /** When the method returns. */
        ON_RETURN("its result"),
        /** When the returned stage completes. */
        WITH_STAGE("a CompletionStage"),
        /** When the returned Uni, Multi or publisher terminates or is cancelled (held as a Mutiny stream). */
        WITH_STREAM("a Uni, Multi or Publisher");

        private final String result;

        End(String result) {
            this.result = result;
        }

        /** How a message names what such a method returns, e.g. "a CompletionStage". */
        public String result() {
            return result;
        }
    }

    private final Object emptyResult;
    private final End end;

    ReturnKind(Object emptyResult, End end) {
        this.emptyResult = emptyResult;
        this.end = end;
    }

    /** When a call's work ends (see {@link End}). */
    public End end() {
        return end;
    }

    /** The result a skipped call returns. A fresh completed stage each time, since callers may complete or cancel it. */
    public Object emptyResult() {
        return this == COMPLETION_STAGE ? CompletableFuture.completedFuture(null) : emptyResult;
    }

    /** Types whose work runs after the method returns; a method must declare exactly one of them to be held across it. */
    static final List<String> DEFERRED = List.of(
            "java.util.concurrent.CompletionStage",
            "io.smallrye.mutiny.Uni",
            "io.smallrye.mutiny.Multi",
            "org.reactivestreams.Publisher",
            "java.util.concurrent.Flow$Publisher");

    boolean isReactive() {
        return end == End.WITH_STREAM;
    }

    /** The classes Padlock needs on its class path to hold a lock across this kind, as Maven coordinates. */
    String missingLibrary(ClassLoader loader) {
        if (!isReactive()) {
            return null;
        }
        if (!present("io.smallrye.mutiny.Multi", loader)) {
            return "io.smallrye.reactive:mutiny";
        }
        if (this == REACTIVE_STREAMS_PUBLISHER && !present("mutiny.zero.flow.adapters.AdaptersToFlow", loader)) {
            return "io.smallrye.reactive:mutiny-zero-flow-adapters";
        }
        return null;
    }

    private static boolean present(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static ReturnKind of(TypeShape type) {
        if (type.isPrimitive()) {
            return PRIMITIVE;
        }
        return switch (type.name()) {
            case "java.util.Optional" -> OPTIONAL;
            case "java.util.OptionalInt" -> OPTIONAL_INT;
            case "java.util.OptionalLong" -> OPTIONAL_LONG;
            case "java.util.OptionalDouble" -> OPTIONAL_DOUBLE;
            case "java.util.concurrent.CompletionStage", "java.util.concurrent.CompletableFuture" -> COMPLETION_STAGE;
            case "io.smallrye.mutiny.Uni" -> UNI;
            case "io.smallrye.mutiny.Multi" -> MULTI;
            case "java.util.concurrent.Flow$Publisher" -> FLOW_PUBLISHER;
            case "org.reactivestreams.Publisher" -> REACTIVE_STREAMS_PUBLISHER;
            default -> BLOCKING;
        };
    }

    /**
     * The kind of a method's return type, checked: a subtype of a deferred type is refused (its work would run
     * after the lock is released), and so is a reactive type without the library Padlock holds it with.
     */
    static ReturnKind checked(MethodShape method, Problems problems) {
        TypeShape returned = method.returnType();
        ReturnKind kind = of(returned);
        if (kind == BLOCKING) {
            for (String deferred : DEFERRED) {
                if (!returned.name().equals(deferred) && returned.isAssignableTo(deferred)) {
                    String simple = deferred.substring(deferred.lastIndexOf('.') + 1);
                    problems.invalidMethod(
                            method.display(),
                            "it returns " + returned.name() + ", a " + simple
                                    + " subtype whose work runs after the method returns",
                            "Declare the return type as CompletionStage, CompletableFuture, Uni, Multi or"
                                    + " Publisher (held until the result completes), or a plain value");
                    return kind;
                }
            }
        }
        String missing = kind.missingLibrary(ReturnKind.class.getClassLoader());
        if (missing != null) {
            problems.invalidMethod(
                    method.display(),
                    "it returns " + returned.name() + ", and Padlock holds locks across reactive types with"
                            + " Mutiny, which it cannot find",
                    "Add the dependency " + missing + " next to Padlock");
        }
        return kind;
    }
}
