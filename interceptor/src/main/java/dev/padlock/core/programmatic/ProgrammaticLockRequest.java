package dev.padlock.core.programmatic;

import dev.padlock.LockRequest;
import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.SettingValues;
import dev.padlock.core.operation.LockOperation;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One {@link LockRequest}: what a call set, checked as it is set, so that running only looks up the operation its
 * settings resolve to (planned by {@code ProgrammaticLocks}) and runs the code through it as an operation runs a method.
 */
final class ProgrammaticLockRequest implements LockRequest {

    /** What {@link #run} gets back when its code ran: a skipped call gets {@code null}. */
    private static final Object RAN = new Object();

    /** The operation a request's settings resolve to, for the kind of result its code returns. */
    interface Operations {
        /** @throws dev.padlock.LockException when the settings are refused; nothing was taken */
        LockOperation operation(RequestSettings settings, Class<?> result);
    }

    private final Operations locks;
    private final Object[] keys;
    private final RequestSettings settings;

    ProgrammaticLockRequest(Operations locks, Object[] keys, RequestSettings settings) {
        this.locks = locks;
        this.keys = keys;
        this.settings = settings;
    }

    @Override
    public LockRequest type(LockType type) {
        Objects.requireNonNull(type, "type");
        return with(settings.withType(type));
    }

    @Override
    public LockRequest waitTime(Duration waitTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        if (waitTime.isNegative()) {
            throw new IllegalArgumentException(settings.display() + ".waitTime(" + waitTime
                    + "): a wait cannot be negative. Use Duration.ZERO" + " to try once");
        }
        return with(settings.withWait(waitTime.toString()));
    }

    @Override
    public LockRequest leaseTime(Duration leaseTime) {
        Objects.requireNonNull(leaseTime, "leaseTime");
        if (leaseTime.compareTo(DurationText.MIN_LEASE) < 0) {
            throw new IllegalArgumentException(settings.display() + ".leaseTime(" + leaseTime
                    + "): a lease under 1ms would free the lock before the code runs. Set 1ms or more, or call"
                    + " watchdog() to have it renewed while the code runs");
        }
        return with(settings.withLease(leaseTime.toString()));
    }

    @Override
    public LockRequest watchdog() {
        return with(settings.withLease(SettingValues.WATCHDOG));
    }

    @Override
    public LockRequest holdAtLeast(Duration holdAtLeast) {
        Objects.requireNonNull(holdAtLeast, "holdAtLeast");
        if (holdAtLeast.isNegative()) {
            throw new IllegalArgumentException(settings.display() + ".holdAtLeast(" + holdAtLeast
                    + "): a hold cannot be negative. Use Duration.ZERO to release when the code ends");
        }
        return with(settings.withHoldAtLeast(holdAtLeast.toString()));
    }

    @Override
    public LockRequest onFailure(OnFailure onFailure) {
        Objects.requireNonNull(onFailure, "onFailure");
        return with(settings.withOnFailure(onFailure));
    }

    private LockRequest with(RequestSettings changed) {
        return new ProgrammaticLockRequest(locks, keys, changed);
    }

    @Override
    public boolean run(Runnable body) {
        Objects.requireNonNull(body, "body");
        return runUnchecked(Object.class, () -> {
                    body.run();
                    return RAN;
                })
                == RAN;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Supplier<? extends T> body) {
        Objects.requireNonNull(body, "body");
        return (T) runUnchecked(Object.class, body::get);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T call(Callable<? extends T> body) throws Exception {
        Objects.requireNonNull(body, "body");
        return (T) locks.operation(settings, Object.class).invoke(new CallableInvocation(keys, body));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletionStage<T> stage(Supplier<? extends CompletionStage<T>> body) {
        Objects.requireNonNull(body, "body");
        return (CompletionStage<T>) runUnchecked(CompletionStage.class, body::get);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> Uni<T> uni(Supplier<? extends Uni<T>> body) {
        Objects.requireNonNull(body, "body");
        return (Uni<T>) runUnchecked(Uni.class, body::get);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> Multi<T> multi(Supplier<? extends Multi<T>> body) {
        Objects.requireNonNull(body, "body");
        return (Multi<T>) runUnchecked(Multi.class, body::get);
    }

    /** Runs code that declares no checked exception; one it throws anyway (sneakily) reaches the caller unchanged. */
    private Object runUnchecked(Class<?> result, Callable<?> code) {
        try {
            return locks.operation(settings, result).invoke(new CallableInvocation(keys, code));
        } catch (Exception e) {
            throw ProgrammaticLockRequest.<RuntimeException>sneaky(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    @Override
    public String toString() {
        return settings.display();
    }
}
