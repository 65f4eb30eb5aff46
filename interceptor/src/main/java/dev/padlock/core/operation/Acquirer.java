package dev.padlock.core.operation;

import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.turns.LocalTurns;
import java.util.concurrent.CompletableFuture;

/**
 * Takes one method's locks for a call, in order, within one wait budget, without blocking: each key first in the
 * application's {@link LocalTurns} queue when its kind takes turns, then from Redis (or from the call that held it
 * before, see {@link HandOff}). Whatever goes wrong (not free, no answer, the caller gave up, a failure of Padlock's
 * own), what was taken is released and the turns are passed on. Built once per method, with what its calls share;
 * each acquisition is a {@link Taking} of its own, whose steps read it.
 */
final class Acquirer {

    private final LockPlan plan;
    /** What each of the method's acquisitions reads ({@link Taking}). */
    private final AcquisitionRules rules;
    /**
     * Whether the method's work is done when it returns (a blocking method): only such a call, nested in one that
     * holds some of its keys, may share that hold.
     */
    private final boolean endsOnReturn;

    /**
     * @param leaseMillis a fixed lease, or -1 when the lock is renewed while held (watchdog mode)
     * @param handsOff whether this method's calls hand their keys on
     */
    Acquirer(
            LockPlan plan,
            long leaseMillis,
            boolean fenced,
            boolean endsOnReturn,
            LockKind kind,
            LocalTurns<HandOff.Hold> turns,
            EngineServices services,
            boolean handsOff) {
        this.plan = plan;
        this.endsOnReturn = endsOnReturn;
        this.rules = new AcquisitionRules(
                plan,
                plan.settings().waitTime().toMillis(),
                leaseMillis,
                fenced,
                kind,
                turns,
                services.renewal(),
                services.releaser(),
                services.client(),
                services.releaseTiming(plan.settings().release()),
                services.commands(),
                services.ticker(),
                handsOff);
    }

    /**
     * Takes every lock of the call in order within one wait budget without blocking the caller. Completes with false
     * when one was not free and the caller chose SKIP, with {@link LockNotAcquiredException}, or with a {@link
     * LockException} for a nested call that can never share its caller's hold; on any failure, and when the result is
     * cancelled, the locks taken are released.
     */
    CompletableFuture<Boolean> acquireAllAsync(LockedCall call) {
        if (call.sharesHolds()) {
            LockException refused = refusedNested(call);
            if (refused != null) {
                Taking.ended(call, LockEvents.Outcome.REFUSED, rules.ticker().getAsLong());
                return CompletableFuture.failedFuture(refused);
            }
        }
        long lease =
                rules.leaseMillis() > 0 ? rules.leaseMillis() : rules.renewal().leaseMillis();
        Taking taking = new Taking(rules, call, lease, rules.ticker().getAsLong());
        if (call.scope() != null) {
            taking.result.whenComplete((taken, failure) -> rules.timing().waited(call));
        }
        taking.takeFrom(0);
        return taking.result;
    }

    /**
     * Why a call nested in one that holds some of its keys cannot share that hold, or {@code null} when it can: it
     * can when its work ends before the enclosing call's does, which only a blocking method promises (its work is
     * done when it returns, inside the enclosing method); when the enclosing hold gives it the access it needs (a
     * read lock is never upgraded to a write lock); and only while the enclosing hold is not lost. The first two are
     * misuse that no retry can fix, so they are a {@link LockException}, not a {@link LockNotAcquiredException}.
     */
    private LockException refusedNested(LockedCall call) {
        for (int i = 0; i < call.locks.length; i++) {
            if (!call.sharesHold(i)) {
                continue;
            }
            LockedCall host = call.host(i);
            String key = call.locks[i].getName();
            String head = "Lock " + key + " for " + plan.method() + " cannot be taken inside the enclosing call to "
                    + host.facts.method() + ", which holds this key";
            if (!endsOnReturn) {
                return new LockException(head + ": a nested call returning " + returnedType()
                        + " can neither share that hold (its result may complete after the enclosing call released"
                        + " the key) nor wait for it (it would wait for its own caller), so it was refused at once."
                        + " Make this method return its result directly, or call it outside the enclosing call");
            }
            LockType held = host.facts.type();
            LockType wanted = call.facts.type();
            if (held != wanted && !(held == LockType.WRITE && wanted == LockType.READ)) {
                return new LockException(head + " as a " + held + " lock, which cannot be shared by a " + wanted
                        + " lock"
                        + (held == LockType.READ && wanted == LockType.WRITE
                                ? ": a read lock cannot be upgraded to a write lock (other readers may hold the key"
                                        + " beside it, and Redis grants a write lock only once every reader left,"
                                        + " this call's own caller included)."
                                        + " Take the WRITE lock in the enclosing call, or call this method outside it"
                                : ". Use one lock type for every method that can reach the key"));
            }
            if (host.isLost(call.hostIndex(i))) {
                return notAcquired(
                        key,
                        "the enclosing call to " + host.facts.method() + " holds this key but has lost"
                                + " it (see the LockLost event), so there is no hold to share",
                        null);
            }
        }
        return null;
    }

    private String returnedType() {
        return plan.returnKind().end().result();
    }

    LockNotAcquiredException notAcquired(String key, String reason, Throwable cause) {
        return rules.notAcquired(key, reason, cause);
    }
}
