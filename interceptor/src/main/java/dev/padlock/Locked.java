package dev.padlock;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated business method under a distributed lock held in Redis, so that two calls for the same
 * key, in this JVM or any other using the same Redis, never run it at the same time.
 *
 * <pre>{@code
 * @Locked(value = "stock", key = "{sku}")   // Redis key "padlock:stock:<sku>", held until the method returns
 * public Reservation reserve(String sku, int qty) { ... }
 * }</pre>
 *
 * <p>On a type, it applies to every business method of the bean; an annotation on a method wins over the
 * one on its type. Every member is checked when the application deploys: a bad template, an unknown
 * parameter, an unparsable duration or {@code SKIP} on a primitive return type stops the deployment with
 * a message that names the class, the method and the fix.
 *
 * <p><b>How long the lock is held.</b> A method returning a plain value (or {@code void}) holds it until it
 * returns or throws. A method returning {@code CompletionStage} or {@code CompletableFuture}, a Mutiny {@code Uni}
 * or {@code Multi}, or a {@code Flow.Publisher} or Reactive Streams {@code Publisher} holds it until that result
 * completes or fails, not until the method returns; a {@code Uni}, {@code Multi} or {@code Publisher} takes it
 * on subscription and runs the method then. Cancelling the result does not release the lock while the work
 * behind it may still run: it stops being renewed and lapses with its lease.
 *
 * <p><b>Keys.</b> The Redis key is {@code padlock.key-prefix} (default {@code padlock:}), the lock name
 * ({@link #value()}), then, for each {@link #key()} template, {@code :} and the rendered template. A value is
 * rendered with its {@code toString()}, escaped so it can never form a Redis Cluster hash tag: <code>{</code>
 * becomes {@code %7B}, <code>}</code> {@code %7D} and {@code %} {@code %25}. A rendered part longer than 256
 * characters is shortened to its first 64 characters, {@code ~sha256:} and the SHA-256 of the whole part, in hex.
 * A {@code null} argument or property along a template's path (or a getter that throws) fails the call with
 * {@link LockException} before any lock is taken; the method does not run.
 *
 * <p><b>Configuration.</b> Per-lock keys beat the annotation, which beats the global keys, which beat the
 * defaults: {@code padlock.locks."<value>".type}, {@code .wait-time}, {@code .lease-time}, {@code .on-failure},
 * {@code .hold-at-least}
 * and {@code .on-lease-lost} ({@code warn} or {@code throw}, which has no member here; default
 * {@code padlock.on-lease-lost}, else {@code warn}), and {@code .release} ({@code after-transaction} or
 * {@code on-return}, no member either; default {@code padlock.release}, else {@code after-transaction}); the global
 * ones are {@code padlock.wait-time}, {@code padlock.lease-time}, {@code padlock.on-lease-lost} and
 * {@code padlock.release}. The quotes around the name may be left out when it has no dots.
 *
 * <p><b>Interceptor order.</b> The interceptor runs at {@code Interceptor.Priority.PLATFORM_BEFORE + 100}, outside
 * JTA's {@code @Transactional} ({@code + 200}) and SmallRye Fault Tolerance ({@code 4010}): the lock is taken before
 * the transaction begins and released after it commits or rolls back, so the next holder sees committed data.
 * {@code padlock.interceptor-priority} moves it (read at deployment; at build time on Quarkus); a value of
 * {@code 200} or more puts the lock inside the transaction, which Padlock warns about at start-up. When the caller
 * owns the transaction (or the lock is inside it), a call that ends while that JTA transaction is active keeps its
 * lock until the transaction completes ({@code padlock.release=after-transaction}, the default).
 *
 * @see LockContext the lock of the running call: deadline, {@code checkHeld()}, fencing token
 * @see LockLost the event fired when a held lock is lost
 * @see LockNotAcquiredException thrown when the lock is not acquired in time
 * @see LockLostException thrown after the method with {@code on-lease-lost=throw}
 * @see LockException thrown when a key cannot be rendered
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Locked {

    /**
     * The lock name, also the name of its configuration section {@code padlock.locks."<name>".*}; surrounding
     * blanks are ignored. It must not contain <code>{</code> or <code>}</code> (a deployment error). Default:
     * {@code <fully.qualified.DeclaringClass>#<method>}.
     *
     * <p>Example: {@code @Locked("nightly-report")} locks Redis key {@code padlock:nightly-report}, configured under
     * {@code padlock.locks.nightly-report.*}.
     */
    @Nonbinding
    String value() default "";

    /**
     * Key templates rendered from the arguments and appended to the name: <code>"{sku}"</code> (a parameter
     * by name; compile with {@code -parameters}), <code>"{0}"</code> (by position), <code>"{order.id}"</code>
     * (getters, record components or public fields), literal text around placeholders allowed:
     * <code>"eu-{sku}"</code>. Several templates lock several keys at once, always taken in sorted order so
     * two calls can never deadlock; templates that render the same key lock it once. Equal arguments must render
     * equal keys: a value that is an array, a {@code Date} or {@code Calendar}, an unordered {@code Set} or
     * {@code Map}, or of a class that inherits {@code Object.toString()} is refused at deployment (judged by the
     * declared type; interfaces, abstract classes and {@code Object} pass). See the class
     * description for escaping, shortening and {@code null}s. Default: none (one lock for every call).
     *
     * <p>Example: <code>@Locked(value = "stock", key = {"{from}", "{to}"})</code> on
     * {@code transfer(String from, String to, int qty)} locks {@code padlock:stock:<from>} and
     * {@code padlock:stock:<to>}.
     */
    @Nonbinding
    String[] key() default {};

    /**
     * The Redisson lock to use; one lock name keeps one type (a deployment error otherwise, {@code READ} and
     * {@code WRITE} counting as one). Per lock: {@code padlock.locks."<name>".type}, e.g. {@code fenced}. Default:
     * {@link LockType#REENTRANT}.
     *
     * <p>Example: {@code @Locked(value = "catalog", type = LockType.READ)} on readers and
     * {@code @Locked(value = "catalog", type = LockType.WRITE)} on the method that changes the catalog.
     */
    @Nonbinding
    LockType type() default LockType.REENTRANT;

    /**
     * How long to wait for the lock, at most 10 years ({@code "3650d"}): {@code "0"} tries once; {@code "250ms"},
     * {@code "5s"}, {@code "2m"}, {@code "1h"}, {@code "1d"}, or ISO-8601 such as {@code "PT2M"}. The wait includes
     * time queued locally: for {@code REENTRANT}, {@code WRITE}, {@code SPIN} and {@code FENCED} locks the calls of
     * one application that want the same key queue in the JVM and only the first asks Redis, so {@code "0"} fails
     * at once, without asking Redis, while another call of this application holds the key. When the wait runs
     * out the method does not run, and the caller gets what {@link #onFailure()} says. Per lock:
     * {@code padlock.locks."<name>".wait-time}. Empty: {@code padlock.wait-time}, else 5 seconds.
     *
     * <p>Example: {@code @Locked(value = "nightly-report", waitTime = "0", onFailure = OnFailure.SKIP)} skips the
     * report, at once, on an instance where another one is running it.
     */
    @Nonbinding
    String waitTime() default "";

    /**
     * A fixed lease after which Redis frees the lock even if the method still runs; same syntax as
     * {@link #waitTime()}, from {@code "1ms"} to {@code "3650d"}, or the literal {@code "watchdog"} to ask for no
     * fixed lease even where {@code padlock.lease-time} sets one. Without a fixed lease, Padlock renews the lock
     * every third of {@code padlock.watchdog-timeout} (30 seconds by default) while the method runs (once per held
     * lock, rather than through Redisson's watchdog, whose renewals multiply in Redisson 4.7), and it lapses
     * {@code padlock.watchdog-timeout} after this JVM dies. A lock whose lease ends while its method runs is
     * reported as lost ({@link LockLost}). Per lock: {@code padlock.locks."<name>".lease-time}. Empty:
     * {@code padlock.lease-time}, else no fixed lease.
     *
     * <p>Example: {@code @Locked(value = "import", leaseTime = "10m")} frees the lock after ten minutes even if
     * the import still runs, or this JVM hangs.
     */
    @Nonbinding
    String leaseTime() default "";

    /**
     * What the caller gets when the lock is held by another caller for the whole {@link #waitTime()}; an
     * unreachable Redis or an interrupted caller gets {@link LockNotAcquiredException} whatever this says. Per lock:
     * {@code padlock.locks."<name>".on-failure}, {@code throw} or {@code skip}. Default: {@link OnFailure#THROW}.
     *
     * <p>Example: {@code @Locked(value = "sync", onFailure = OnFailure.SKIP)} on {@code Optional<Report> sync()}
     * returns {@code Optional.empty()} while another caller syncs.
     */
    @Nonbinding
    OnFailure onFailure() default OnFailure.THROW;

    /**
     * The least time the lock stays held from when the call took it, for jobs that must run once across instances
     * (ShedLock's {@code lockAtLeastFor}): a call that ends sooner does not delete its key but leaves it, still owned
     * by the call, to expire this long after the call took it, so an instance whose scheduler fires a little later
     * finds the key held and skips ({@code waitTime = "0"}, {@code onFailure = SKIP}) instead of running the same
     * occurrence again. A call that runs longer releases at its end as usual. Make it longer than the clock skew and
     * scheduler jitter between the instances, and shorter than the interval between occurrences. Same syntax as
     * {@link #waitTime()}; at most the lease: the fixed {@link #leaseTime()}, or in watchdog mode
     * {@code padlock.watchdog-timeout} (30 seconds by default), checked at deployment. Only for {@code REENTRANT},
     * {@code SPIN} and {@code FENCED} locks, and their keys are never handed from one call of the application to the
     * next. Per lock: {@code padlock.locks."<name>".hold-at-least}. Empty or {@code "0"}: none, the key is released
     * when the call ends.
     *
     * <p>Example: {@code @Locked(value = "nightly-report", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast =
     * "30s")} on an {@code @Scheduled} method runs the report on one instance per occurrence, even when it takes a
     * second and the other instances fire up to 30 seconds later.
     */
    @Nonbinding
    String holdAtLeast() default "";
}
