package dev.padlock;

/**
 * What a caller gets when a {@link Locked} method cannot take its lock in time because another caller holds it.
 *
 * <pre>{@code
 * @Locked(value = "nightly-report", waitTime = "0", onFailure = OnFailure.SKIP)
 * public void nightlyReport() { ... }   // another instance runs it: this one skips
 * }</pre>
 *
 * <p>Set per lock with {@code padlock.locks."<name>".on-failure} ({@code throw} or {@code skip}).
 */
public enum OnFailure {
    /** Throw {@link LockNotAcquiredException}; the method body does not run. The default. */
    THROW,
    /**
     * Do not run the method and return an empty result: {@code null} for objects and {@code void},
     * {@code Optional.empty()} (and the primitive optionals' empties), an already completed stage holding
     * {@code null} for {@code CompletionStage}/{@code CompletableFuture}, a {@code Uni} that emits {@code null}, an
     * empty {@code Multi}, {@code Flow.Publisher} or Reactive Streams {@code Publisher}. Invalid on primitive
     * return types (deployment error).
     *
     * <p>SKIP covers contention only: when Redis cannot be reached or does not answer, the caller is interrupted,
     * or a nested call cannot share its caller's hold, the caller still gets {@link LockNotAcquiredException}, so
     * an outage is never mistaken for "someone else ran it".
     */
    SKIP
}
