package dev.padlock.core;

import dev.padlock.LockLost;
import dev.padlock.LockLostException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.key.KeyRenderer;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.ReturnKind;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockKind;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * What the interceptor runs for one {@code @Locked} method: render the keys, take the locks in order,
 * proceed, release on every exit. Built once per method; a call allocates only what the locks need.
 */
public abstract class LockOperation {

    private static final System.Logger LOG = System.getLogger(LockOperation.class.getName());

    final LockPlan plan;
    private final KeyRenderer keys;
    final LockKind kind;
    private final RedisClientSource client;
    private final long waitMillis;
    /** A fixed lease, or -1 when the lock is renewed while held (watchdog mode). */
    final long leaseMillis;

    private final boolean fenced;
    private final boolean throwOnLoss;
    /** Renews watchdog-mode locks instead of Redisson's watchdog, whose 4.7.0 renewals multiply (see there). */
    private final LeaseRenewal renewal;
    /** Where this application's calls queue for a key before asking Redis; {@code null} for shared or fair locks. */
    private final LocalTurns turns;

    final LockLossReporter losses;
    final CallerContext callers;
    /** What the operations of this operation's engine share; nested calls share holds within one engine only. */
    final Shared engine;

    /**
     * Owner ids of calls whose locks are not owned by the calling thread (stages, reactive types) count down from a
     * random start below -2^32: negative, so they never collide with thread ids (positive) under the same Redisson
     * client id; random, because another application in the JVM may bundle its own copy of Padlock (its own class
     * loader, its own counter) and share the client, and Redis tells owners apart by {@code <client id>:<owner>}
     * only. Two starts drawn from 2^62 meet only if they lie within the number of calls made of each other.
     */
    private static final AtomicLong NEXT_CALL_OWNER =
            new AtomicLong(-(1L << 32) - (new SecureRandom().nextLong() >>> 2));

    /** What the operations of one engine share. */
    record Shared(
            RedisClientSource client,
            LeaseRenewal renewal,
            LockLossReporter losses,
            CallerContext callers,
            LocalTurns turns) {}

    LockOperation(LockPlan plan, Method method, Shared shared) {
        this.plan = plan;
        this.keys = KeyRenderer.of(plan.method(), plan.redisBase(), plan.keys(), method);
        this.kind = LockKind.of(plan.settings().type());
        this.client = shared.client();
        this.waitMillis = plan.settings().waitTime().toMillis();
        this.leaseMillis = plan.settings().usesWatchdog()
                ? -1
                : plan.settings().leaseTime().toMillis();
        this.fenced = plan.settings().type() == LockType.FENCED;
        this.throwOnLoss = plan.settings().onLeaseLost() == LeaseLossPolicy.THROW;
        this.renewal = shared.renewal();
        this.turns = kind.takesTurns() ? shared.turns() : null;
        this.losses = shared.losses();
        this.callers = shared.callers();
        this.engine = shared;
    }

    /**
     * The operation for a validated plan, chosen by how the method returns its result. {@link PadlockEngine}
     * shares one renewal and one loss reporter among all operations of an application.
     */
    static LockOperation of(LockPlan plan, Method method, Shared shared) {
        switch (plan.returnKind()) {
            case COMPLETION_STAGE:
                return new StageOperation(plan, method, shared);
            case UNI:
            case MULTI:
            case FLOW_PUBLISHER:
            case REACTIVE_STREAMS_PUBLISHER:
                // Loaded only here, so Mutiny is needed only by applications that return its types.
                return new ReactiveOperation(plan, method, shared);
            default:
                return new BlockingOperation(plan, method, shared);
        }
    }

    /** An owner id for a call whose locks outlive the calling thread's involvement. */
    static long nextCallOwner() {
        return NEXT_CALL_OWNER.decrementAndGet();
    }

    public abstract Object invoke(InvocationContext ctx) throws Exception;

    public LockPlan plan() {
        return plan;
    }

    /**
     * The locks of this call, one per distinct rendered key, in sorted key order, for {@code owner}. While the client
     * is still connecting, waits for it: for callers that may block (see {@link #locksLater} for the others).
     */
    final HeldLocks locksFor(Object[] args, long owner) {
        String[] names = keys.render(args);
        refuseIfInterrupted(names);
        RedissonClient redisson = client.getNow();
        if (redisson == null) {
            try {
                redisson = client.get();
            } catch (RuntimeException e) {
                // Fail closed: no client, no lock, no method body.
                boolean interrupted = e.getCause() instanceof InterruptedException;
                throw notAcquired(
                        names[0],
                        interrupted ? "the calling thread was interrupted" : "no connection to Redis could be made",
                        interrupted ? e.getCause() : e);
            }
        }
        return locks(names, redisson, owner);
    }

    /**
     * The locks of this call without waiting for the client: at once when it is connected (the common case), else
     * once it is. A caller that must not block (an event loop) waits no longer than its wait time for the
     * connection, and with a wait time of 0 not at all: it fails with {@link LockNotAcquiredException}. A bad key
     * template is thrown here, to the caller.
     */
    final CompletableFuture<HeldLocks> locksLater(Object[] args, long owner) {
        String[] names = keys.render(args);
        refuseIfInterrupted(names);
        RedissonClient redisson = client.getNow();
        if (redisson != null) {
            return CompletableFuture.completedFuture(locks(names, redisson, owner));
        }
        CompletableFuture<RedissonClient> ready = client.ready();
        boolean bounded = callers.mustNotBlock();
        if (bounded && waitMillis == 0 && !ready.isDone()) {
            return CompletableFuture.failedFuture(
                    notAcquired(names[0], "Redis is not connected yet (Padlock is still connecting)", null));
        }
        if (bounded) {
            ready.orTimeout(waitMillis, TimeUnit.MILLISECONDS);
        }
        CompletableFuture<HeldLocks> locks = new CompletableFuture<>();
        ready.whenComplete((connected, failure) -> {
            if (failure == null) {
                try {
                    locks.complete(locks(names, connected, owner));
                } catch (Throwable t) {
                    locks.completeExceptionally(t);
                }
            } else if (Acquisition.unwrap(failure) instanceof TimeoutException) {
                locks.completeExceptionally(notAcquired(
                        names[0],
                        "Redis is not connected yet (Padlock is still connecting)",
                        Acquisition.unwrap(failure)));
            } else {
                locks.completeExceptionally(
                        notAcquired(names[0], "no connection to Redis could be made", Acquisition.unwrap(failure)));
            }
        });
        return locks;
    }

    private void refuseIfInterrupted(String[] names) {
        if (Thread.currentThread().isInterrupted()) {
            // As Lock.lockInterruptibly: an interrupted caller does not start to acquire.
            throw notAcquired(names[0], "the calling thread was interrupted", new InterruptedException());
        }
    }

    private HeldLocks locks(String[] names, RedissonClient redisson, long owner) {
        RLock[] locks = new RLock[names.length];
        for (int i = 0; i < names.length; i++) {
            locks[i] = kind.lock(redisson, names[i]);
        }
        return new HeldLocks(this, locks, owner, fenced, turns != null);
    }

    /**
     * Takes every lock of the call, waiting on the calling thread: {@link #acquireAllAsync}, awaited. A caller
     * interrupted while waiting cancels it, which releases whatever it took; nothing stays held.
     *
     * @return true when all are held; false when one was not free in time and the caller chose SKIP
     * @throws LockNotAcquiredException otherwise
     */
    final boolean acquireAll(HeldLocks call) {
        CompletableFuture<Boolean> acquiring = acquireAllAsync(call);
        try {
            return acquiring.get(Acquisition.answerDeadlineMillis(waitMillis), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            abandon(call, acquiring);
            Thread.currentThread().interrupt();
            throw notAcquired(call.locks[0].getName(), "the calling thread was interrupted", e);
        } catch (TimeoutException e) {
            abandon(call, acquiring);
            throw notAcquired(call.locks[0].getName(), "Redis did not answer the lock request", e);
        } catch (ExecutionException e) {
            // LockNotAcquiredException, or e.g. the client shut down under the call; nothing is left held
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** The caller gives up waiting: the acquisition releases what it takes from now on, and what it took. */
    private void abandon(HeldLocks call, CompletableFuture<Boolean> acquiring) {
        if (!acquiring.cancel(false) && !acquiring.isCompletedExceptionally() && acquiring.join()) {
            releaseAll(call);
        }
    }

    /**
     * Takes every lock of the call in order within one wait budget without blocking the caller: for callers that
     * must not block, and for reactive types. Completes with false when one was not free and the caller chose SKIP,
     * or with {@link LockNotAcquiredException}; on any failure, and when the result is cancelled, the locks taken
     * are released.
     */
    final CompletableFuture<Boolean> acquireAllAsync(HeldLocks call) {
        if (call.sharesHolds()) {
            LockNotAcquiredException refused = refusedNested(call);
            if (refused != null) {
                return CompletableFuture.failedFuture(refused);
            }
        }
        long lease = leaseMillis > 0 ? leaseMillis : renewal.leaseMillis();
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        takeNext(call, 0, lease, deadline, result);
        return result;
    }

    /**
     * Why a call nested in one that holds some of its keys cannot share that hold, or {@code null} when it can: it
     * can when its work ends before the enclosing call's does, which only a blocking method promises (its work is
     * done when it returns, inside the enclosing method); and only while the enclosing hold is not lost.
     */
    private LockNotAcquiredException refusedNested(HeldLocks call) {
        for (int i = 0; i < call.locks.length; i++) {
            if (!call.sharesHold(i)) {
                continue;
            }
            HeldLocks host = call.host(i);
            String key = call.locks[i].getName();
            if (!(this instanceof BlockingOperation)) {
                return notAcquired(
                        key,
                        "the enclosing call to " + host.operation.plan().method() + " holds this key, and a nested"
                                + " call returning "
                                + (plan.returnKind() == ReturnKind.COMPLETION_STAGE
                                        ? "a CompletionStage"
                                        : "a Uni, Multi or Publisher")
                                + " cannot share that hold (its result may complete after the enclosing call released"
                                + " the key), nor wait for it (it would wait for its own caller). Make this method"
                                + " return its result directly, or call it outside the enclosing call",
                        null);
            }
            if (host.isLost(call.hostIndex(i))) {
                return notAcquired(
                        key,
                        "the enclosing call to " + host.operation.plan().method() + " holds this key but has lost"
                                + " it (see the LockLost event), so there is no hold to share",
                        null);
            }
        }
        return null;
    }

    private void takeNext(HeldLocks call, int next, long lease, long deadline, CompletableFuture<Boolean> result) {
        int index = skipShared(call, next);
        if (index == call.locks.length) {
            if (!result.complete(true)) {
                releaseAllLater(call); // cancelled while the last lock was being taken
            }
            return;
        }
        long wait = index == 0 ? waitMillis : remainingMillis(deadline);
        if (call.needsNoTurn(index)) {
            attempt(call, index, wait, lease, deadline, result);
            return;
        }
        String key = call.locks[index].getName();
        CompletableFuture<Boolean> turn = turns.await(key, wait);
        if (turn.getNow(false)) {
            // granted at once, the common case: no other call of the application holds the key
            withTurn(call, index, key, wait, lease, deadline, result);
            return;
        }
        result.whenComplete((taken, failure) -> {
            if (result.isCancelled()) {
                turn.cancel(false); // stop queueing; a turn granted meanwhile is passed on in withTurn
            }
        });
        turn.whenComplete((mine, failure) -> {
            if (Boolean.TRUE.equals(mine)) {
                // what is left of the wait goes to Redis
                withTurn(call, index, key, remainingMillis(deadline), lease, deadline, result);
            } else {
                notFree(call, index, result);
            }
        });
    }

    /**
     * Counts the locks from {@code index} on that an enclosing call on this thread holds as taken: shared, nothing to
     * ask (a fencing token is the enclosing call's). Returns the first lock the call must take itself.
     */
    private static int skipShared(HeldLocks call, int index) {
        while (index < call.locks.length && call.sharesHold(index)) {
            if (call.tokens != null) {
                call.tokens[index] = call.host(index).tokens[call.hostIndex(index)];
            }
            call.taken(++index);
        }
        return index;
    }

    /** The call has the turn for lock {@code index}: asks Redis for it, unless the call is over already. */
    private void withTurn(
            HeldLocks call,
            int index,
            String key,
            long wait,
            long lease,
            long deadline,
            CompletableFuture<Boolean> result) {
        if (!call.tookTurn(index)) {
            turns.pass(key); // the call is being released already
        } else if (result.isDone()) {
            releaseAllLater(call); // the caller cancelled meanwhile
        } else {
            attempt(call, index, wait, lease, deadline, result);
        }
    }

    private static long remainingMillis(long deadline) {
        return Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
    }

    /** Asks Redis for lock {@code index} within {@code wait}, then goes on with the next one. */
    private void attempt(
            HeldLocks call, int index, long wait, long lease, long deadline, CompletableFuture<Boolean> result) {
        RLock lock = call.locks[index];
        CompletableFuture<Boolean> attempt;
        long sent = System.nanoTime();
        try {
            attempt = fenced
                    ? Acquisition.tryFenced(lock, wait, lease, call.owner).thenApply(token -> {
                        if (token != null) {
                            call.tokens[index] = token;
                        }
                        return token != null;
                    })
                    : Acquisition.tryLock(lock, wait, lease, call.owner);
        } catch (RuntimeException e) {
            // e.g. the client shut down under the call: nothing may stay held or registered for renewal
            releaseAllLater(call);
            result.completeExceptionally(e);
            return;
        }
        attempt.whenComplete((taken, failure) -> {
            if (failure == null && Boolean.TRUE.equals(taken)) {
                call.confirmed(index, sent, lease);
                call.taken(index + 1);
                if (!call.watched) {
                    call.watched = true;
                    renewal.watch(call);
                }
            }
            if (failure != null) {
                // No answer is not "not taken": the script may have run (a timeout while the server was slow or
                // paused). Undo it like a taken lock; the owner-checked unlock finds nothing if it had not.
                call.inDoubt = index;
                call.taken(index + 1);
                releaseAllLater(call);
                result.completeExceptionally(
                        notAcquired(lock.getName(), "Redis could not be asked", Acquisition.unwrap(failure)));
            } else if (!Boolean.TRUE.equals(taken)) {
                notFree(call, index, result);
            } else if (result.isDone()) {
                releaseAllLater(call); // the caller cancelled meanwhile
            } else {
                takeNext(call, index + 1, lease, deadline, result);
            }
        });
    }

    /** Lock {@code index} was not free within the wait: release what the call took, then skip or fail. */
    private void notFree(HeldLocks call, int index, CompletableFuture<Boolean> result) {
        releaseAllLater(call);
        if (plan.settings().onFailure() == OnFailure.SKIP) {
            result.complete(false);
        } else {
            result.completeExceptionally(
                    notAcquired(call.locks[index].getName(), "it is held by another caller", null));
        }
    }

    /** Refuses a call that would block a thread that must not block, before anything is taken. */
    final void refuseIfCallerMustNotBlock() {
        if (callers.mustNotBlock()) {
            throw new dev.padlock.LockException("@Locked " + plan.method() + " was called on "
                    + Thread.currentThread().getName() + ", an event-loop thread, and waiting for its lock would"
                    + " block the loop. Return Uni, Multi or CompletionStage (the lock is then taken without"
                    + " blocking), or call it from a worker thread (e.g. annotate the caller @Blocking).");
        }
    }

    final LockNotAcquiredException notAcquired(String key, String reason, Throwable cause) {
        return new LockNotAcquiredException(key, plan.method(), plan.settings().waitTime(), reason, cause);
    }

    /** Stops renewing and watching the call's locks; they are about to be released. */
    private void stopRenewing(HeldLocks call) {
        call.stopped = true;
        renewal.stop(call);
    }

    /**
     * The call is over, but its work may go on and its end cannot be observed any more (a cancelled future reports
     * done while the task that would complete it still runs; a cancelled subscription hears nothing more). Releasing
     * would let another caller in beside that work, so the locks are not released: they stop being renewed and
     * lapse with their lease (in watchdog mode, within the watchdog timeout). Releasing later is a no-op.
     */
    final void letLapse(HeldLocks call) {
        // The lease renewal keeps watching the call: at each lock's deadline, its turn goes on (lapsedBy).
        call.lapsing = true;
        if (call.beginRelease() == null) {
            return; // released already
        }
        passTurns(call, call.taken()); // locks never taken, if any: nothing to wait for
    }

    /**
     * For a call {@link #letLapse left to lapse}: passes on the turns of the locks whose deadline passed by {@code
     * now}. Returns when the next one's deadline comes, or {@code Long.MAX_VALUE} when none is left.
     */
    final long lapsedBy(HeldLocks call, long now) {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < call.taken(); i++) {
            long deadline = call.sharesHold(i) ? 0 : call.deadline(i);
            if (deadline == 0 || call.isLost(i) || now - deadline >= 0) {
                passTurn(call, i);
            } else if (deadline - next < 0) {
                next = deadline;
            }
        }
        return next;
    }

    /**
     * Releases the locks the call took, last taken first, and reports any found lost, on the calling thread:
     * observers have seen the {@link LockLost} event when this returns.
     */
    final void releaseAll(HeldLocks call) {
        CompletableFuture<Void> renewals = call.beginRelease();
        if (renewals == null) {
            return;
        }
        stopRenewing(call);
        Acquisition.awaitUninterruptibly(renewals);
        int count = call.taken();
        passTurns(call, count);
        for (int i = count - 1; i >= 0; i--) {
            if (call.sharesHold(i)) {
                continue; // the enclosing call's to release
            }
            Throwable failure = Acquisition.release(call.locks[i], call.owner);
            passTurn(call, i);
            if (failure != null) {
                LockLost loss = releaseFailed(call, i, failure);
                if (loss != null) {
                    losses.reportNow(loss);
                }
            }
        }
    }

    /** Passes on the turns the call holds for locks it did not take (from {@code count} on): nothing to release. */
    private void passTurns(HeldLocks call, int count) {
        for (int i = count; i < call.locks.length; i++) {
            passTurn(call, i);
        }
    }

    /**
     * Lock {@code index} is released, was never taken, or its lease is over: the next call of this application may
     * ask Redis. At most once per lock and call.
     */
    final void passTurn(HeldLocks call, int index) {
        if (call.giveUpTurn(index)) {
            turns.pass(call.locks[index].getName());
        }
    }

    /**
     * Releases without waiting; completes when every release has been answered and any loss reported (on
     * Padlock's event thread, never on Redisson's I/O threads).
     */
    final CompletableFuture<Void> releaseAllLater(HeldLocks call) {
        CompletableFuture<Void> renewals = call.beginRelease();
        if (renewals == null) {
            return CompletableFuture.completedFuture(null);
        }
        stopRenewing(call);
        return renewals.isDone() ? unlockAll(call) : renewals.thenCompose(answered -> unlockAll(call));
    }

    private CompletableFuture<Void> unlockAll(HeldLocks call) {
        int count = call.taken();
        passTurns(call, count);
        CompletableFuture<?>[] releases = new CompletableFuture<?>[count];
        for (int i = count - 1; i >= 0; i--) {
            int index = i;
            if (call.sharesHold(i)) {
                releases[i] = CompletableFuture.completedFuture(null); // the enclosing call's to release
                continue;
            }
            releases[i] = Acquisition.unlock(call.locks[i], call.owner)
                    .handle((ignored, failure) -> {
                        passTurn(call, index);
                        return failure == null ? null : releaseFailed(call, index, failure);
                    })
                    .thenCompose(
                            loss -> loss == null ? CompletableFuture.completedFuture(null) : losses.reportLater(loss));
        }
        return CompletableFuture.allOf(releases);
    }

    /** The loss to report when releasing lock {@code index} failed, or {@code null} if it was reported already. */
    private LockLost releaseFailed(HeldLocks call, int index, Throwable failure) {
        if (index == call.inDoubt) {
            return null; // never known to be taken: not held is no loss
        }
        Throwable cause = Acquisition.unwrap(failure);
        // Not held by this owner any more: its lease ran out. Any other failure: Redis could not say.
        return cause instanceof IllegalMonitorStateException
                ? lost(call, index, LockLost.Detection.RELEASE, null)
                : lost(call, index, LockLost.Detection.UNCONFIRMED, cause);
    }

    /** Records a loss of lock {@code index}; the event to report, or {@code null} when it was reported already. */
    final LockLost lost(HeldLocks call, int index, LockLost.Detection how, Throwable cause) {
        LockLost loss = new LockLost(call.locks[index].getName(), plan.method(), call.heldFor(), how, cause);
        return call.markLost(index, loss) ? loss : null;
    }

    /**
     * For {@link dev.padlock.LockContext#checkHeld}: the loss of one of the call's locks (or of an enclosing call's
     * hold it shares), reported now if its deadline passed and the timer has not said so yet; {@code null} while every
     * lock is held.
     */
    static LockLost overdueNow(HeldLocks call, long now) {
        for (int i = 0; i < call.locks.length; i++) {
            HeldLocks holder = call.sharesHold(i) ? call.host(i) : call;
            int index = call.sharesHold(i) ? call.hostIndex(i) : i;
            LockLost loss = holder.lossOf(index);
            long deadline = holder.deadline(index);
            if (loss == null && deadline != 0 && now - deadline >= 0) {
                loss = deadlinePassed(holder, index);
            }
            if (loss != null) {
                return loss;
            }
        }
        return null;
    }

    /**
     * Lock {@code index} of the call passed its deadline: reported lost (once, on the event thread) and its local turn
     * passed on, since Redis may grant the key to anyone from now on. Returns the loss recorded for it.
     */
    static LockLost deadlinePassed(HeldLocks call, int index) {
        LockOperation operation = call.operation;
        LockLost loss = operation.lost(call, index, LockLost.Detection.DEADLINE, call.lastRenewalFailure());
        if (loss == null) {
            return call.lossOf(index);
        }
        operation.losses.reportLater(loss);
        operation.passTurn(call, index);
        return loss;
    }

    /** With {@code on-lease-lost=throw}, what the call throws after its method because a lock was lost; else null. */
    final LockLostException lostException(HeldLocks call) {
        if (!throwOnLoss) {
            return null;
        }
        LockLost loss = call.firstLoss();
        return loss == null ? null : new LockLostException(loss);
    }

    /** A renewal could not reach Redis; it is tried again until the lock's deadline. */
    final void renewalFailed(RLock lock, Throwable failure, long retryMillis) {
        losses.renewalFailed();
        LOG.log(
                System.Logger.Level.WARNING,
                () -> "Lock " + lock.getName() + " for " + plan.method() + " could not be renewed (" + failure
                        + "); Padlock retries every " + retryMillis + " ms, and reports the lock lost if no renewal"
                        + " is confirmed before its lease runs out.");
    }
}
