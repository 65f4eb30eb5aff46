package dev.padlock;

/** What a caller gets when a {@link Locked} method cannot take its lock in time. */
public enum OnFailure {
    /** Throw {@link LockNotAcquiredException}; the method body does not run. */
    THROW,
    /**
     * Do not run the method and return an empty result: {@code null} for objects and {@code void},
     * {@code Optional.empty()} (and the primitive optionals' empties), an already completed stage holding
     * {@code null} for {@code CompletionStage}/{@code CompletableFuture}. Invalid on primitive return types
     * (deployment error).
     */
    SKIP
}
