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
 * Runs the annotated business method under a distributed lock held in Redis.
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
 * <p>Per-lock configuration {@code padlock.locks."<value>".type / wait-time / lease-time / on-failure}
 * overrides the members below; the global {@code padlock.wait-time} and {@code padlock.lease-time} apply
 * where neither sets a value.
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Locked {

    /**
     * The lock name, also the name of its configuration section {@code padlock.locks."<name>".*}. It must
     * not contain <code>{</code> or <code>}</code>. Default: {@code <fully.qualified.DeclaringClass>#<method>}.
     */
    @Nonbinding
    String value() default "";

    /**
     * Key templates rendered from the arguments and appended to the name: <code>"{sku}"</code> (a parameter
     * by name; compile with {@code -parameters}), <code>"{0}"</code> (by position), <code>"{order.id}"</code>
     * (getters, record components or public fields), literal text around placeholders allowed:
     * <code>"eu-{sku}"</code>. Several templates lock several keys at once, always taken in sorted order so
     * two calls can never deadlock. Default: none (one lock for every call).
     */
    @Nonbinding
    String[] key() default {};

    /** The Redisson lock to use. Default: {@link LockType#REENTRANT}. */
    @Nonbinding
    LockType type() default LockType.REENTRANT;

    /**
     * How long to wait for the lock: {@code "0"} tries once; {@code "250ms"}, {@code "5s"}, {@code "2m"},
     * {@code "1h"}, or ISO-8601 such as {@code "PT2M"}. Empty: {@code padlock.wait-time}, else 5 seconds.
     */
    @Nonbinding
    String waitTime() default "";

    /**
     * A fixed lease after which Redis frees the lock even if the method still runs; same syntax as
     * {@link #waitTime()}. Empty: {@code padlock.lease-time}, else no fixed lease: Padlock renews the lock
     * every third of {@code padlock.watchdog-timeout} while the method runs (once per held lock, rather than
     * through Redisson's watchdog, whose renewals multiply in Redisson 4.7), and it lapses
     * {@code padlock.watchdog-timeout} after this JVM dies.
     */
    @Nonbinding
    String leaseTime() default "";

    /** What the caller gets when the lock is not acquired in time. Default: {@link OnFailure#THROW}. */
    @Nonbinding
    OnFailure onFailure() default OnFailure.THROW;
}
