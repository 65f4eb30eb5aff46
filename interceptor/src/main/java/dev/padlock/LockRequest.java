package dev.padlock;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A lock to run code under, from {@link Locks#on}: set what differs for this call, then run. Immutable: each setter
 * returns a new request, so a configured request can be kept in a field and shared between threads.
 *
 * <pre>{@code
 * boolean ran = locks.on("nightly-report")
 *         .waitTime(Duration.ZERO)          // try once
 *         .onFailure(OnFailure.SKIP)        // another instance runs it: skip
 *         .run(report::generate);
 * }</pre>
 *
 * <p>What happens when the lock is not acquired, is lost, or the code fails is what happens to a {@link Locked}
 * method: {@link LockNotAcquiredException} (or, with {@link OnFailure#SKIP} and plain contention, an empty result),
 * {@link LockLost} events and, with {@code padlock.on-lease-lost=throw}, {@link LockLostException} after the code;
 * the code's own exception reaches the caller unchanged, after the lock is released.
 */
public interface LockRequest {

    /** The lock type; default {@link LockType#REENTRANT}. {@code padlock.locks."<name>".type} beats it. */
    LockRequest type(LockType type);

    /**
     * How long to wait for the lock; {@link Duration#ZERO} tries once. Default {@code padlock.wait-time};
     * {@code padlock.locks."<name>".wait-time} beats it.
     *
     * @throws IllegalArgumentException when negative
     */
    LockRequest waitTime(Duration waitTime);

    /**
     * A fixed lease: the lock expires this long after it was taken unless released first. Default
     * {@code padlock.lease-time}, else the watchdog; {@code padlock.locks."<name>".lease-time} beats it.
     *
     * @throws IllegalArgumentException when under 1 ms
     */
    LockRequest leaseTime(Duration leaseTime);

    /** No fixed lease: the lock is renewed while the code runs (the watchdog), whatever {@code padlock.lease-time} says. */
    LockRequest watchdog();

    /**
     * The least time the lock stays held from when it was taken, for work that must run once across instances
     * ({@link Locked#holdAtLeast()}): code that ends sooner leaves the key to expire then instead of releasing it.
     * At most the lease; only for {@code REENTRANT}, {@code SPIN} and {@code FENCED} locks (else the run throws
     * {@link LockException} before taking anything). Default none; {@code padlock.locks."<name>".hold-at-least}
     * beats it.
     * <pre>{@code
     * locks.on("nightly-report").waitTime(Duration.ZERO).onFailure(OnFailure.SKIP)
     *         .holdAtLeast(Duration.ofSeconds(30)).run(report::generate);
     * }</pre>
     * @throws IllegalArgumentException when negative
     */
    LockRequest holdAtLeast(Duration holdAtLeast);

    /** What a caller gets when the lock is held by someone else; default {@link OnFailure#THROW}. */
    LockRequest onFailure(OnFailure onFailure);

    /**
     * Runs {@code body} under the lock, on the calling thread, and releases it when the body ends.
     *
     * @return true when the body ran; false when it did not because the lock was taken and the request says
     *     {@link OnFailure#SKIP}
     * @throws LockNotAcquiredException when the lock could not be taken (and not skipped)
     */
    boolean run(Runnable body);

    /**
     * Runs {@code body} under the lock, on the calling thread, and returns its value.
     *
     * @return the body's value; {@code null} when skipped ({@link OnFailure#SKIP})
     */
    <T> T get(Supplier<? extends T> body);

    /**
     * As {@link #get}, for code that throws checked exceptions: they reach the caller unchanged, after the release.
     *
     * @return the body's value; {@code null} when skipped ({@link OnFailure#SKIP})
     */
    <T> T call(Callable<? extends T> body) throws Exception;

    /**
     * Takes the lock without blocking the caller, then calls {@code body} and holds the lock until the stage it
     * returns completes, as a {@code @Locked} method returning a {@code CompletionStage}: cancelling the returned
     * stage is forwarded to the body's stage but never releases the lock while its work may still run.
     *
     * @return the body's outcome; a stage completed with {@code null} when skipped
     */
    <T> CompletionStage<T> stage(Supplier<? extends CompletionStage<T>> body);

    /**
     * A {@code Uni} that takes the lock when subscribed, then subscribes to the {@code Uni} that {@code body}
     * returns and holds the lock until it emits or fails (or the subscription is cancelled); each subscription is
     * one locked run. Needs Mutiny ({@code io.smallrye.reactive:mutiny}).
     *
     * @return a {@code Uni} emitting the body's item; {@code null} when skipped
     */
    <T> Uni<T> uni(Supplier<? extends Uni<T>> body);

    /**
     * As {@link #uni}, for a stream: the lock is held from subscription until the {@code Multi} that {@code body}
     * returns completes, fails or is cancelled. Needs Mutiny.
     *
     * @return the body's items; empty when skipped
     */
    <T> Multi<T> multi(Supplier<? extends Multi<T>> body);
}
