package dev.padlock.core.call;

import dev.padlock.LockContext;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.turns.LocalTurns;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;

/**
 * One {@code @Locked} call's locks while it runs, including those not taken yet: which are taken and since when,
 * their fencing tokens, the local turns it holds, and the enclosing calls whose holds it shares. Its leases are
 * booked in {@link LeaseBook}; {@code LeaseRenewal} watches them. Bound to the thread running the body so {@link
 * LockContext} can describe it.
 *
 * <p>Long (about 600 lines), though issue #40 means to split it: a call is the one allocation a call makes beyond its
 * locks (its lease book is its superclass for the same reason), so its turns, the holds handed to it and its nesting
 * live in it rather than in objects of their own.
 */
public final class LockedCall extends LeaseBook {

    private static final ThreadLocal<LockedCall> CURRENT = new ThreadLocal<>();

    public final CallFacts facts;
    public final RLock[] locks;
    /**
     * The owner id the call takes its locks under in Redis, its own (never a thread's: see {@code
     * LockOperation.nextCallOwner()}); see {@link #ownerOf} for those handed to it.
     */
    public final long owner;
    /** Fencing tokens by lock index, for {@code FENCED} locks only; else {@code null}. */
    private final long[] tokens;

    /** How many of {@code locks}, in order, are taken: only those are renewed and released. */
    private volatile int takenCount;

    private long acquiredNanos;

    /**
     * The lock whose acquisition got no answer (a timeout while the script may have run), released like a taken one
     * but not reported lost when found not held; -1 when none. See {@link #takenInDoubt}.
     */
    private volatile int inDoubt = -1;

    /**
     * Whether the call's meter heard it acquired its locks, so it also hears of their release, once. Written before
     * the acquisition completes, read by whoever releases after it.
     */
    private volatile boolean metered;

    /**
     * What the call's meter kept of the acquisition's start ({@link LockEvents.Meter#acquiring}), handed back when it
     * ends; written by the caller before the acquisition starts, so whoever ends it sees it.
     */
    private Object acquiring;

    /** Whether {@code LeaseRenewal} watches this call's deadlines; written by the thread that acquires. */
    private boolean watched;

    /**
     * Whether the method body began ({@link #bind}), a fact kept beside the {@link CallPhase} since a release reads it
     * after the phase moved on: only a call whose body ran keeps its keys for a hold-at-least; a call that took a key
     * without running (in doubt, given up, its next key not free) releases it.
     */
    private volatile boolean bodyRan;

    /**
     * What the call ends inside and may keep its locks for until it completes (the caller's transaction, as its
     * release timing identifies it: {@code ReleaseTiming.scope}); {@code null} when none.
     */
    private Object scope;

    /** While the call's release is deferred ({@link CallPhase#DEFERRED}), what the live view says it waits for. */
    private volatile String deferredFor;

    /** Where the call queues for its keys before asking Redis; {@code null} for locks that take no turns. */
    private final LocalTurns<HandOff.Hold> turns;
    /** With {@link #turns}: which locks this call holds the turn for (guarded by this). */
    private final boolean[] turnsHeld;

    /**
     * By lock index, the enclosing call on this thread that holds the same key already, or {@code null}: this call
     * shares that hold instead of asking Redis (see {@link #sharesHolds}). {@code null} when there is none, the common
     * case.
     */
    private LockedCall[] hosts; // written by the constructor only, as hostIndexes

    private int[] hostIndexes;

    /** The call this one is nested in on the thread running its body, while bound; see {@link #bind}. */
    private LockedCall enclosing;

    /** When the call's locks are handed on to the next local caller instead of unlocked; {@code null}: never. */
    private final HandOff handOff;

    /**
     * By lock index, the Redis hold another call of this application handed to this one ({@link HandOff}), or
     * {@code null}; {@code null} until the first. Written by the thread that adopts, before the lock counts as taken.
     */
    private volatile HandOff.Hold[] adopted;

    /**
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
            List<LockedCall> keptForScope) {
        super(locks.length);
        this.handOff = handOff;
        this.facts = facts;
        this.locks = locks;
        this.owner = owner;
        this.tokens = fenced ? new long[locks.length] : null;
        this.turns = turns;
        this.turnsHeld = turns != null ? new boolean[locks.length] : null;
        for (LockedCall call = CURRENT.get(); call != null; call = call.enclosing) {
            shareHoldsOf(call);
        }
        for (LockedCall call : keptForScope) {
            shareHoldsOf(call);
        }
    }

    /**
     * Constructor only: records, by lock index, that this call shares the holds {@code call} has of its keys, for
     * the keys no call found before holds; the arrays are allocated on the first (none, in the common case).
     */
    private void shareHoldsOf(LockedCall call) {
        if (!call.facts.sameEngineAs(facts)) {
            return; // another application's call, run on this thread: its holds are not this one's
        }
        for (int i = 0; i < locks.length; i++) {
            int j = call.indexOf(locks[i].getName());
            if (j >= 0 && (hosts == null || hosts[i] == null)) {
                if (hosts == null) {
                    hosts = new LockedCall[locks.length];
                    hostIndexes = new int[locks.length];
                }
                hosts[i] = call;
                hostIndexes[i] = j;
            }
        }
    }

    /** The index of the lock on {@code key} among those this call has taken, or -1. */
    private int indexOf(String key) {
        int count = takenCount;
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
        return hosts != null && hosts[index] != null;
    }

    /** The enclosing call whose hold of lock {@code index} this call shares; see {@link #sharesHold}. */
    public LockedCall host(int index) {
        return hosts[index];
    }

    public int hostIndex(int index) {
        return hostIndexes[index];
    }

    /**
     * Lock {@code index} is held by an enclosing call ({@link #sharesHold}): counts this call among those sharing that
     * hold, so that the host is not released before this call is (see {@link LeaseBook#beginRelease}), and marks the lock
     * taken with the host's fencing token. False when the host's release has begun meanwhile (its transaction
     * completed on another thread): there is no hold to share any more, and nothing was taken.
     */
    public boolean shareHold(int index) {
        LockedCall host = hosts[index];
        if (!host.admitSharer()) {
            return false;
        }
        if (tokens != null) {
            tokens[index] = host.tokens[hostIndexes[index]];
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
        LockedCall[] due = null;
        int count = takenCount;
        for (int i = 0; i < count; i++) {
            if (hosts[i] != null && hosts[i].sharerEnded()) {
                if (due == null) {
                    due = new LockedCall[count];
                }
                due[i] = hosts[i];
            }
        }
        return due;
    }

    /** Whether the call queues in {@link LocalTurns} before asking Redis for lock {@code index}. */
    public boolean queuesFor(int index) {
        return turns != null && !sharesHold(index);
    }

    /**
     * The turn for lock {@code index} was granted to this call; false when the call has ended meanwhile, so the
     * caller must pass the turn on itself.
     */
    public synchronized boolean tookTurn(int index) {
        if (!holdsLocks()) {
            return false;
        }
        turnsHeld[index] = true;
        return true;
    }

    /**
     * Lock {@code index} is released, was never taken, or its lease is over: the next call of this application may
     * ask Redis. Passes the turn at most once per lock and call, and only if this call holds it.
     */
    public void passTurn(int index) {
        passTurn(index, 0);
    }

    /**
     * As {@link #passTurn(int)}; the next caller waits {@code yieldNanos} before asking Redis, so that a caller of
     * another application, waiting in Redis for the key this call just unlocked, gets it first.
     */
    public void passTurn(int index, long yieldNanos) {
        if (turns == null) {
            return;
        }
        synchronized (this) {
            if (!turnsHeld[index]) {
                return;
            }
            turnsHeld[index] = false;
        }
        turns.pass(locks[index].getName(), yieldNanos);
    }

    /**
     * The owner id lock {@code index} is held under in Redis: the call's own when it took the lock from Redis, or for
     * a lock handed to it, the hold's (see {@link HandOff.Hold}): an owner id names one Redis hold, and passes with it.
     */
    public long ownerOf(int index) {
        HandOff.Hold[] holds = adopted;
        return holds == null || holds[index] == null ? owner : holds[index].owner();
    }

    /** The hold of lock {@code index} that was handed to this call, or {@code null} if it took the lock itself. */
    HandOff.Hold adoptedHold(int index) {
        HandOff.Hold[] holds = adopted;
        return holds == null ? null : holds[index];
    }

    /**
     * Lock {@code index} was handed to this call with {@code hold}, the turn with it: the call holds it under the
     * hold's owner until the inherited deadline (or a later one Redis confirms). The caller then marks it taken.
     */
    public void adopt(int index, HandOff.Hold hold) {
        HandOff.Hold[] holds = adopted;
        if (holds == null) {
            holds = new HandOff.Hold[locks.length];
        }
        holds[index] = hold;
        adopted = holds;
        inherited(index, hold.deadline());
    }

    /**
     * By lock index, Redis's answer to a check sent while this call held the lock (after it began), that its owner
     * still holds it; {@code null} until the first. Only such an answer lets the call hand the lock on ({@link
     * HandOff}).
     */
    private volatile CompletableFuture<?>[] checks;

    /** Records the check of lock {@code index} sent while this call holds it (see {@link #checkOf}). */
    public void checked(int index, CompletableFuture<Boolean> check) {
        CompletableFuture<?>[] all = checks;
        if (all == null) {
            all = new CompletableFuture<?>[locks.length];
        }
        all[index] = check;
        checks = all;
    }

    /** The check of lock {@code index} sent while this call held it, or {@code null}: none was sent. */
    @SuppressWarnings("unchecked")
    public CompletableFuture<Boolean> checkOf(int index) {
        CompletableFuture<?>[] all = checks;
        return all == null ? null : (CompletableFuture<Boolean>) all[index];
    }

    /** Whether other calls of this application wait for lock {@code index}'s key; a hint (see {@link LocalTurns}). */
    public boolean hasLocalWaiters(int index) {
        return turns != null && turns.hasWaiters(locks[index].getName());
    }

    /**
     * The call is done with lock {@code index}, which Redis confirmed it holds: hands {@code hold} (the key, still held
     * in Redis) to the next call of this application waiting for it. True when handed on: the turn went with it;
     * false when nobody took it, and the caller must unlock it and pass the turn as usual.
     */
    public boolean handOn(int index, HandOff.Hold hold) {
        synchronized (this) {
            if (!turnsHeld[index]) {
                return false; // passed on already (found lost just now): the next caller asks Redis
            }
            turnsHeld[index] = false; // claimed here, so that no one passes it beside the hand-off
        }
        if (turns.handOff(locks[index].getName(), hold)) {
            return true;
        }
        synchronized (this) {
            turnsHeld[index] = true; // nobody waits: kept until the key is unlocked in Redis
        }
        return false;
    }

    /**
     * Whether the call, finishing, may hand lock {@code index} on, by what it knows itself: not lost, not in doubt, no
     * renewal or check failed (a loss suspected must surface, not travel), and within its {@link HandOff} bounds.
     * Redis's confirmation is asked for separately. Called once the call's renewals and checks are answered and none
     * is sent any more.
     */
    public boolean mayHandOn(int index, long now) {
        if (handOff == null || index == inDoubt || isLost(index) || lastRenewalFailure() != null) {
            return false;
        }
        return handOff.allows(adoptedHold(index), chainStart(index), ownDeadline(index), now);
    }

    /** The hold of lock {@code index} to hand to the next local caller, once {@link #mayHandOn} said yes. */
    public HandOff.Hold holdToHandOn(int index) {
        HandOff.Hold adopted = adoptedHold(index);
        return new HandOff.Hold(
                ownerOf(index),
                ownDeadline(index),
                chainStart(index),
                (adopted == null ? 0 : adopted.handOffs()) + 1,
                new CompletableFuture<>());
    }

    /**
     * How long this application's next caller sits out after this call ended its chain on lock {@code index} by
     * unlocking it while {@code others} other clients wait for it in Redis (see {@link HandOff#sitOutNanos}); 0
     * where keys are not handed on.
     */
    public long sitOutNanos(int index, long others, long now) {
        return handOff == null ? 0 : handOff.sitOutNanos(chainStart(index), others, now);
    }

    /**
     * A call that took the key from Redis starts the chain when it took its first lock: for a later lock of a
     * multi-key call that is a little early, which only ends the chain sooner.
     */
    private long chainStart(int index) {
        HandOff.Hold adopted = adoptedHold(index);
        return adopted == null ? acquiredNanos : adopted.chainStart();
    }

    /** When the call took its first lock ({@link System#nanoTime}). */
    public long acquiredNanos() {
        return acquiredNanos;
    }

    /**
     * Lock {@code index}'s acquisition got no answer, so it may have been taken (a timeout while the script may have
     * run): it counts as taken, so that the release undoes it with an owner-checked unlock, but it is never reported
     * lost when found not held, nor kept for a hold-at-least, nor handed on.
     */
    public void takenInDoubt(int index) {
        inDoubt = index;
        markTaken(index + 1);
    }

    /** Whether the call's locks give fencing tokens ({@code FENCED}). */
    public boolean isFenced() {
        return tokens != null;
    }

    /** The fencing token Redis gave lock {@code index} (or the enclosing call's, for a shared hold); 0 before. */
    public long token(int index) {
        return tokens[index];
    }

    /** Redis gave lock {@code index} fencing token {@code token}, as it granted it. */
    public void recordToken(int index, long token) {
        tokens[index] = token;
    }

    /** Whether lock {@code index} was taken in doubt ({@link #takenInDoubt}). */
    public boolean isInDoubt(int index) {
        return index == inDoubt;
    }

    /** The call's meter heard it acquired its locks: it hears of their release too ({@link #holdEnded}). */
    public void acquisitionMetered() {
        metered = true;
    }

    /** The call starts to acquire; {@code token} is what its meter keeps of that start, handed back as it ends. */
    public void startedAcquiring(Object token) {
        acquiring = token;
    }

    /** What the call's meter kept of the acquisition's start; see {@link #startedAcquiring}. */
    public Object acquiringToken() {
        return acquiring;
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

    /** The first {@code count} locks are held from now on. */
    public void markTaken(int count) {
        if (count == 1) {
            acquiredNanos = System.nanoTime();
        }
        takenCount = count;
    }

    /** How many locks, in order, are taken. */
    public int takenCount() {
        return takenCount;
    }

    public Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredNanos);
    }

    /**
     * The call gave up its locks (released them, or left them to lapse): tells its meter how long they were held, if
     * it heard they were acquired. Called once per call, by whoever began the release or the lapse.
     */
    public void holdEnded() {
        if (metered) {
            facts.meter().released(System.nanoTime() - acquiredNanos);
        }
    }

    /** The deadline of lock {@code index} ({@link System#nanoTime}), the enclosing call's if shared; 0 if not taken. */
    public long deadline(int index) {
        return sharesHold(index) ? hosts[index].deadline(hostIndexes[index]) : ownDeadline(index);
    }

    /**
     * Whether lock {@code index} is kept until the call's hold-at-least is up rather than released: only when the call
     * has one, its body ran, and the lock was not taken in doubt (never known to be the call's).
     */
    public boolean keepsHoldAtLeast(int index) {
        return facts.holdAtLeastMillis() > 0 && bodyRan && index != inDoubt;
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
     * The method body is about to run on this thread: makes this the thread's call until {@link #unbind}, moves it to
     * {@link CallPhase#RUNNING} if {@link #start} did not, and records that the body ran (see {@link
     * #keepsHoldAtLeast}). Returns the call it hides (nested calls).
     */
    public LockedCall bind() {
        synchronized (this) {
            if (phase() != CallPhase.RUNNING) {
                moveTo(CallPhase.RUNNING);
            }
        }
        bodyRan = true;
        LockedCall outer = CURRENT.get();
        enclosing = outer;
        CURRENT.set(this);
        return outer;
    }

    public static void unbind(LockedCall outer) {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }

    /** The call whose body runs on this thread, or {@code null}. */
    public static LockedCall current() {
        return CURRENT.get();
    }

    /**
     * The call this one is nested in, while this one is bound to a thread (see {@link #bind}); {@code null} for the
     * outermost. Read on the thread it is bound to: from {@link #current()} outwards.
     */
    LockedCall enclosing() {
        return enclosing;
    }

    public List<String> keys() {
        List<String> keys = new ArrayList<>(locks.length);
        for (RLock lock : locks) {
            keys.add(lock.getName());
        }
        return keys;
    }

    /**
     * Adds the locks this call holds itself to a live view's picture (a shared hold is its enclosing call's).
     *
     * @param renewed whether the call's leases are renewed (watchdog mode)
     * @param now {@link System#nanoTime}
     */
    public void describeHeld(boolean renewed, long now, List<LiveLocks.Held> into) {
        int count = takenCount; // read first: markTaken writes acquiredNanos before it
        long heldMillis = TimeUnit.NANOSECONDS.toMillis(now - acquiredNanos);
        String phase =
                switch (phase()) {
                    case RELEASING, DONE -> "releasing";
                    case LAPSING -> "lapsing";
                    case DEFERRED -> deferredFor;
                    case ACQUIRING, RUNNING, ABANDONED -> "running";
                };
        for (int i = 0; i < count; i++) {
            if (sharesHold(i)) {
                continue;
            }
            long deadline = ownDeadline(i);
            into.add(new LiveLocks.Held(
                    locks[i].getName(),
                    facts.lockName(),
                    facts.method(),
                    facts.type(),
                    heldMillis,
                    deadline == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(deadline - now),
                    renewed,
                    isLost(i) ? "lost" : phase));
        }
    }

    /** Worked out when asked, so that a call pays for one clock read, not two. */
    public Instant acquiredAt() {
        return Instant.now().minusNanos(System.nanoTime() - acquiredNanos);
    }
}
