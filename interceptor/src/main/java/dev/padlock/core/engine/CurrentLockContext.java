package dev.padlock.core.engine;

import dev.padlock.LockContext;
import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.LockType;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.call.ThreadCalls;
import dev.padlock.core.call.WorkStopper;
import dev.padlock.core.lease.LockLosses;
import jakarta.enterprise.context.Dependent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The {@link LockContext} bean: a view of the call bound to the current thread, holding no state itself. */
@Dependent
public class CurrentLockContext implements LockContext {

    @Override
    public boolean isActive() {
        return ThreadCalls.current() != null;
    }

    @Override
    public String name() {
        return call().facts.lockName();
    }

    @Override
    public String key() {
        return call().locks[0].getName();
    }

    @Override
    public List<String> keys() {
        return call().keys();
    }

    @Override
    public Instant acquiredAt() {
        return call().acquiredAt();
    }

    @Override
    public Duration holdAtLeast() {
        return Duration.ofMillis(call().facts.holdAtLeastMillis());
    }

    @Override
    public Duration remaining() {
        LockedCall call = call();
        long now = call.facts.ticker().getAsLong();
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < call.locks.length; i++) {
            if (call.lossOf(i) != null || (call.sharesHold(i) && call.host(i).isLost(call.hostIndex(i)))) {
                return Duration.ZERO;
            }
            long deadline = call.deadline(i);
            if (deadline - now <= 0) {
                return Duration.ZERO;
            }
            earliest = Math.min(earliest, deadline - now);
        }
        return Duration.ofNanos(earliest);
    }

    @Override
    public int remainingSeconds() {
        checkHeld();
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, remaining().toSeconds()));
    }

    @Override
    public LossRegistration onLoss(LossAction action) {
        Objects.requireNonNull(action, "LockContext.onLoss(action): action");
        LockedCall call = call();
        WorkStopper.Registered registered = new WorkStopper.Registered(action);
        List<WorkStopper> stoppers = new ArrayList<>(1);
        LossRegistration registration = () -> stoppers.forEach(s -> s.remove(registered));
        // The call's own locks, and the holds of enclosing calls it shares: a loss is recorded on the call that holds.
        boolean kept = true;
        for (int i = 0; i < call.locks.length && kept; i++) {
            WorkStopper stopper = (call.sharesHold(i) ? call.host(i) : call).stopperForActions();
            if (!stoppers.contains(stopper)) {
                stoppers.add(stopper);
                kept = stopper.add(registered);
            }
        }
        try {
            checkHeld(); // also a loss recorded before there was a stopper to stop
        } catch (LockLostException e) {
            registration.close();
            throw e;
        }
        if (!kept) {
            registration.close();
            throw new IllegalStateException("LockContext.onLoss(): the call to " + call.facts.method()
                    + " has ended; register actions while its body runs");
        }
        return registration;
    }

    @Override
    public boolean isHeld() {
        return !remaining().isZero();
    }

    @Override
    public void checkHeld() {
        LockedCall call = call();
        LockLost loss = LockLosses.overdueNow(call, call.facts.ticker().getAsLong());
        if (loss != null) {
            throw new LockLostException(loss);
        }
    }

    @Override
    public long token() {
        return token(call(), 0);
    }

    @Override
    public long token(String key) {
        LockedCall call = call();
        for (int i = 0; i < call.locks.length; i++) {
            if (call.locks[i].getName().equals(key)) {
                return token(call, i);
            }
        }
        throw new IllegalArgumentException("LockContext.token(\"" + key + "\"): the call to " + call.facts.method()
                + " holds " + call.keys() + ", not that key");
    }

    private static long token(LockedCall call, int index) {
        if (!call.isFenced()) {
            throw new IllegalStateException("LockContext.token(): the lock of " + call.facts.method()
                    + " is " + call.facts.type()
                    + ", which has no fencing token. Use @Locked(type"
                    + " = " + LockType.FENCED.name() + ") or padlock.locks.\""
                    + call.facts.lockName()
                    + "\".type=fenced");
        }
        return call.token(index);
    }

    private static LockedCall call() {
        LockedCall call = ThreadCalls.current();
        if (call == null) {
            throw new IllegalStateException("LockContext is only valid inside a @Locked call or code run through Locks,"
                    + " on the thread running its body; none is running on "
                    + Thread.currentThread().getName());
        }
        return call;
    }
}
