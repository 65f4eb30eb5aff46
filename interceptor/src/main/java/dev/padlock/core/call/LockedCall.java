package dev.padlock.core.call;

import dev.padlock.LockContext;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.turns.LocalTurns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.redisson.api.RLock;

/**
 * One {@code @Locked} call while it runs, its locks included before they are taken, with a verb for each move of its
 * {@link CallPhase}. What it took is kept by its superclasses ({@link TakenLocks}), its leases booked there too
 * ({@link LeaseBook}, {@link LeaseDeadlines}), so that a call stays one allocation; its turns
 * and the holds handed to it in {@link CallTurns}; the enclosing calls whose holds it shares in {@link SharedHolds};
 * the thread running its body in {@link ThreadCalls}, so that {@link LockContext} can describe it.
 */
public final class LockedCall extends TakenLocks implements SharedHolds.Host {

    public final CallFacts facts;
    public final RLock[] locks;
    /**
     * The owner id the call takes its locks under in Redis, its own (never a thread's: see {@code
     * LockOperation.nextCallOwner()}); see {@link #ownerOf} for those handed to it.
     */
    public final long owner;

    /** Whether {@code LeaseRenewal} watches this call's deadlines; written by the thread that acquires. */
    private boolean watched;

    /**
     * Whether the body began, a fact beside the {@link CallPhase}, read by a release after the phase moved on: only a
     * call whose body ran keeps its keys for a hold-at-least.
     */
    private volatile boolean bodyRan;

    /**
     * What the call ends inside and may keep its locks for until it completes (the caller's transaction, as its
     * release timing identifies it: {@code ReleaseTiming.scope}); {@code null} when none.
     */
    private Object scope;

    /** While the call's release is deferred ({@link CallPhase#DEFERRED}), what the live view says it waits for. */
    private volatile String deferredFor;

    /** The call's place in this application's queue for each key, and the holds handed to it ({@link HandOff}). */
    public final CallTurns turns;

    /** The enclosing calls whose holds this call shares, by lock index; {@code null}: none, the common case. */
    private final SharedHolds hosts;

    /** The call this one is nested in on the thread running its body, while bound; see {@link ThreadCalls#bind}. */
    private LockedCall enclosing;

    /**
     * What stops the call's work at a loss: made with the call when its policy interrupts, else when its body first
     * gives {@link LockContext#onLoss} an action; {@code null} until then, the common case.
     */
    private volatile WorkStopper stopper;

    /**
     * @param innermost the call whose body runs on this thread ({@link ThreadCalls#current()}), or {@code null}: this
     *     call shares the holds it and the calls it is nested in have of this call's keys
     * @param keptForScope the calls that ended inside what this call ends inside (the caller's transaction) and keep
     *     their locks until it completes: this call shares the holds they keep, as a nested call shares its enclosing
     *     call's, for it would otherwise wait for a key that waits for this call's own scope to end
     */
    public LockedCall(
            CallFacts facts,
            RLock[] locks,
            long owner,
            boolean fenced,
            LocalTurns<HandOff.Hold> turns,
            HandOff handOff,
            LockedCall innermost,
            List<LockedCall> keptForScope) {
        super(locks.length, fenced);
        this.facts = facts;
        this.locks = locks;
        this.owner = owner;
        this.turns = new CallTurns(this, locks, owner, turns, handOff);
        this.hosts = SharedHolds.of(this, locks, innermost, keptForScope);
        this.stopper = facts.interruptsOnLoss() ? new WorkStopper(facts.method(), true) : null;
    }

    /** What stops the call's work at a loss, or {@code null} when nothing would be stopped. */
    public WorkStopper stopper() {
        return stopper;
    }

    /** The call's {@link #stopper}, made now if it had none, for an action its body gives {@link LockContext#onLoss}. */
    public synchronized WorkStopper stopperForActions() {
        if (stopper == null) {
            stopper = new WorkStopper(facts.method(), false);
            if (phase() != CallPhase.RUNNING) {
                stopper.end();
            }
        }
        return stopper;
    }

    @Override
    void workEnded() {
        WorkStopper s = stopper;
        if (s != null) {
            s.end();
        }
    }

    @Override
    public int indexOf(String key) {
        int count = takenCount();
        for (int j = 0; j < count; j++) {
            if (locks[j].getName().equals(key)) {
                return j;
            }
        }
        return -1;
    }

    /**
     * Whether an enclosing call on this thread holds some of this call's keys. Such a nested call shares the
     * enclosing hold for those keys: it neither asks Redis nor queues, so it can neither shorten the enclosing lease
     * (Redisson's re-entry would set the nested lease on the key) nor take a second fencing token, nor wait against
     * its own caller when the two have different owners (a stage call around a blocking one). It is released with the
     * enclosing call, not before.
     */
    public boolean sharesHolds() {
        return hosts != null;
    }

    /** Whether lock {@code index} is held by an enclosing call, whose hold this call shares. */
    public boolean sharesHold(int index) {
        return hosts != null && hosts.host(index) != null;
    }

    /** The enclosing call whose hold of lock {@code index} this call shares; see {@link #sharesHold}. */
    public LockedCall host(int index) {
        return (LockedCall) hosts.host(index);
    }

    /** The index of lock {@code index}'s key among the locks of its {@link #host}. */
    public int hostIndex(int index) {
        return hosts.hostIndex(index);
    }

    /**
     * Lock {@code index} is held by an enclosing call ({@link #sharesHold}): counts this call among those sharing that
     * hold, so that the host is not released before this call is (see {@link LeaseBook#beginRelease}), and marks the lock
     * taken with the host's fencing token. False when the host's release has begun meanwhile (its transaction
     * completed on another thread): there is no hold to share any more, and nothing was taken.
     */
    public boolean shareHold(int index) {
        LockedCall host = host(index);
        if (!host.admitSharer()) {
            return false;
        }
        if (isFenced()) {
            recordToken(index, host.token(hosts.hostIndex(index)));
        }
        markTaken(index + 1);
        return true;
    }

    /**
     * This call's release has begun: the holds it shared (those it {@link #shareHold took}) are no longer its. Returns
     * the hosts whose own release waited for this call and is due now (see {@link LeaseBook#beginRelease}), for the
     * caller to release; {@code null} when there are none, the common case. Called once per call.
     */
    public LockedCall[] stopSharing() {
        if (hosts == null) {
            return null;
        }
        SharedHolds.Host[] due = hosts.stop(takenCount());
        return due == null ? null : Arrays.copyOf(due, due.length, LockedCall[].class);
    }

    /** Whether the call queues in {@link LocalTurns} before asking Redis for lock {@code index}. */
    public boolean queuesFor(int index) {
        return turns.queue() && !sharesHold(index);
    }

    /** The owner id lock {@code index} is held under in Redis; see {@link CallTurns#ownerOf}. */
    public long ownerOf(int index) {
        return turns.ownerOf(index);
    }

    /**
     * The body ended, and the call keeps its locks until what it ended inside completes ({@link CallPhase#DEFERRED});
     * {@code awaiting} says what, in the live view ("awaiting transaction"). Called before that can complete.
     */
    public synchronized void deferRelease(String awaiting) {
        deferredFor = awaiting;
        moveTo(CallPhase.DEFERRED);
    }

    /**
     * What the call ended inside could not take it after all ({@link #deferRelease}): it is released at return, as
     * it would be outside it. Nothing changes when its release began meanwhile.
     */
    public synchronized void releaseAtReturn() {
        if (phase() == CallPhase.DEFERRED) {
            moveTo(CallPhase.RUNNING);
        }
    }

    /**
     * {@code LeaseRenewal} is to watch this call's deadlines: true the first time, when the caller must start the
     * watch. Called by the thread that acquires.
     */
    public boolean startWatching() {
        if (watched) {
            return false;
        }
        watched = true;
        return true;
    }

    /** The deadline of lock {@code index} ({@link System#nanoTime}), the enclosing call's if shared; 0 if not taken. */
    public long deadline(int index) {
        return sharesHold(index) ? host(index).deadline(hostIndex(index)) : ownDeadline(index);
    }

    /**
     * Whether lock {@code index} is kept until the call's hold-at-least is up rather than released: only when the call
     * has one, its body ran, and the lock was not taken in doubt (never known to be the call's).
     */
    public boolean keepsHoldAtLeast(int index) {
        return facts.holdAtLeastMillis() > 0 && bodyRan && !isInDoubt(index);
    }

    /** Records what the call ends inside and may keep its locks for until it completes; see {@link #scope}. */
    public void endsInside(Object scope) {
        this.scope = scope;
    }

    /** What the call ends inside (the caller's transaction), or {@code null}; see {@link #endsInside}. */
    public Object scope() {
        return scope;
    }

    /**
     * The method body is about to run, its locks taken ({@link CallPhase#RUNNING}); false when the call was abandoned
     * (cancelled) first, or its release began, and the body must not run.
     */
    public synchronized boolean start() {
        return phase() == CallPhase.ACQUIRING && moveTo(CallPhase.RUNNING);
    }

    /**
     * The caller cancelled before the body ran ({@link CallPhase#ABANDONED}); true when the body had not started, so
     * nothing else will release what the call took; false once it started, or the call ended otherwise.
     */
    public synchronized boolean abandon() {
        CallPhase now = phase();
        if (now == CallPhase.ABANDONED) {
            return true;
        }
        if (now != CallPhase.ACQUIRING) {
            return false;
        }
        moveTo(CallPhase.ABANDONED);
        return true;
    }

    /**
     * The method body is about to run ({@link ThreadCalls#bind}): moves the call to {@link CallPhase#RUNNING} if
     * {@link #start} did not, records that the body ran (see {@link #keepsHoldAtLeast}) and that it is nested in
     * {@code enclosing}, the call whose body it runs inside on this thread, or {@code null}.
     */
    void bodyStarts(LockedCall enclosing) {
        synchronized (this) {
            if (phase() != CallPhase.RUNNING) {
                moveTo(CallPhase.RUNNING);
            }
        }
        bodyRan = true;
        this.enclosing = enclosing;
    }

    /**
     * The call this one is nested in, while this one is bound to a thread ({@link ThreadCalls#bind}); {@code null}
     * for the outermost. Read on the thread it is bound to: from {@link ThreadCalls#current()} outwards.
     */
    LockedCall enclosing() {
        return enclosing;
    }

    @Override
    public SharedHolds.Host enclosingHost() {
        return enclosing;
    }

    @Override
    public boolean sameEngineAs(SharedHolds.Host other) {
        return other instanceof LockedCall call && facts.sameEngineAs(call.facts);
    }

    public List<String> keys() {
        List<String> keys = new ArrayList<>(locks.length);
        for (RLock lock : locks) {
            keys.add(lock.getName());
        }
        return keys;
    }

    /**
     * What the call does with its locks, as a live view says it: running, awaiting what its release was deferred
     * for, releasing or lapsing.
     */
    public String activity() {
        return switch (phase()) {
            case RELEASING, DONE -> "releasing";
            case LAPSING -> "lapsing";
            case DEFERRED -> deferredFor;
            case ACQUIRING, RUNNING, ABANDONED -> "running";
        };
    }

    @Override
    LongSupplier ticker() {
        return facts.ticker();
    }

    @Override
    LockEvents.Meter meter() {
        return facts.meter();
    }
}
