package dev.padlock.core.operation;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.core.CallerContext;
import dev.padlock.core.call.CallFacts;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.call.ThreadCalls;
import dev.padlock.core.client.ConnectionFailedException;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.events.GuardedMeter;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.key.KeyRenderer;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.turns.LocalTurns;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Starts one method's calls: renders the keys from the arguments, gets the Redis client (waiting for it, or not,
 * while Padlock is still connecting), and builds the call's {@link LockedCall}. Built once per method.
 */
final class CallFactory {

    private final CallFacts facts;
    private final KeyRenderer keys;
    private final LockKind kind;
    private final boolean fenced;
    private final LocalTurns<HandOff.Hold> turns;
    private final HandOff handOff;
    private final RedisClientSource client;
    private final CallerContext callers;
    private final long waitMillis;
    /** Words the failures to start a call as failures to acquire. */
    private final Acquirer acquirer;

    CallFactory(
            LockPlan plan,
            Class<?>[] parameterTypes,
            LockKind kind,
            boolean fenced,
            LocalTurns<HandOff.Hold> turns,
            HandOff handOff,
            EngineServices services,
            Acquirer acquirer) {
        this.facts = new CallFacts(
                plan.method(),
                plan.lockName(),
                plan.redisBase(),
                plan.settings().type(),
                services.reporter(),
                GuardedMeter.of(
                        services.events(), plan.lockName(), plan.settings().type()),
                kind,
                plan.settings().holdsAtLeast() ? plan.settings().holdAtLeast().toMillis() : 0,
                !plan.settings().usesWatchdog() && plan.settings().leaseTime().toMillis() > 0,
                services.ticker(),
                plan.settings().lockDelay().toMillis(),
                plan.settings().onLeaseLost() == LeaseLossPolicy.INTERRUPT);
        this.keys = KeyRenderer.of(plan.method(), plan.redisBase(), plan.keys(), parameterTypes);
        this.kind = kind;
        this.fenced = fenced;
        this.turns = turns;
        this.handOff = handOff;
        this.client = services.client();
        this.callers = services.callers();
        this.waitMillis = plan.settings().waitTime().toMillis();
        this.acquirer = acquirer;
    }

    /**
     * A new call: its locks, one per distinct rendered key, in sorted key order, for {@code owner}. While the client
     * is still connecting, waits for it: for callers that may block (see {@link #newCallLater} for the others).
     */
    LockedCall newCall(Object[] args, long owner) {
        return newCall(args, owner, List.of());
    }

    /**
     * As {@link #newCall(Object[], long)}, sharing the holds of {@code keptForScope}: the calls that keep their locks
     * until what this one ends inside completes ({@link ReleaseTiming#keptFor}; see {@link LockedCall}).
     */
    LockedCall newCall(Object[] args, long owner, List<LockedCall> keptForScope) {
        String[] names = keys.render(args);
        Object acquiring = acquiring();
        refuseIfInterrupted(names, acquiring);
        RedissonClient redisson = client.getNow();
        if (redisson == null) {
            try {
                redisson = client.get();
            } catch (RuntimeException e) {
                // Fail closed: no client, no lock, no method body.
                boolean interrupted = e.getCause() instanceof InterruptedException;
                failedToStart(interrupted ? LockEvents.Outcome.INTERRUPTED : LockEvents.Outcome.ERROR, acquiring);
                throw acquirer.notAcquired(
                        names[0],
                        interrupted ? "the calling thread was interrupted" : ConnectionFailedException.noConnection(e),
                        interrupted ? e.getCause() : e);
            }
        }
        return newCall(names, redisson, owner, acquiring, keptForScope);
    }

    /**
     * A new call without waiting for the client: at once when it is connected (the common case), else once it is. A
     * caller that must not block (an event loop) waits no longer than its wait time for the connection, and with a
     * wait time of 0 not at all: it fails with {@link LockNotAcquiredException}. A bad key template is thrown here,
     * to the caller.
     */
    CompletableFuture<LockedCall> newCallLater(Object[] args, long owner) {
        String[] names = keys.render(args);
        Object acquiring = acquiring();
        refuseIfInterrupted(names, acquiring);
        RedissonClient redisson = client.getNow();
        if (redisson != null) {
            return CompletableFuture.completedFuture(newCall(names, redisson, owner, acquiring, List.of()));
        }
        CompletableFuture<RedissonClient> ready = client.ready();
        boolean bounded = callers.mustNotBlock();
        if (bounded && waitMillis == 0 && !ready.isDone()) {
            failedToStart(LockEvents.Outcome.ERROR, acquiring);
            return CompletableFuture.failedFuture(
                    acquirer.notAcquired(names[0], "Redis is not connected yet (Padlock is still connecting)", null));
        }
        if (bounded) {
            ready.orTimeout(waitMillis, TimeUnit.MILLISECONDS);
        }
        CompletableFuture<LockedCall> call = new CompletableFuture<>();
        ready.whenComplete((connected, failure) -> {
            if (failure == null) {
                try {
                    call.complete(newCall(names, connected, owner, acquiring, List.of()));
                } catch (Throwable t) {
                    call.completeExceptionally(t);
                }
            } else if (Acquisition.unwrap(failure) instanceof TimeoutException) {
                failedToStart(LockEvents.Outcome.ERROR, acquiring);
                call.completeExceptionally(acquirer.notAcquired(
                        names[0],
                        "Redis is not connected yet (Padlock is still connecting)",
                        Acquisition.unwrap(failure)));
            } else {
                failedToStart(LockEvents.Outcome.ERROR, acquiring);
                call.completeExceptionally(acquirer.notAcquired(
                        names[0], ConnectionFailedException.noConnection(failure), Acquisition.unwrap(failure)));
            }
        });
        return call;
    }

    private void refuseIfInterrupted(String[] names, Object acquiring) {
        if (Thread.currentThread().isInterrupted()) {
            // As Lock.lockInterruptibly: an interrupted caller does not start to acquire.
            failedToStart(LockEvents.Outcome.INTERRUPTED, acquiring);
            throw acquirer.notAcquired(names[0], "the calling thread was interrupted", new InterruptedException());
        }
    }

    /**
     * Tells the meter, on the caller's thread, that a call starts to acquire: a tracer sees the caller's context only
     * here, the acquisition may end on Redisson's threads.
     */
    private Object acquiring() {
        return facts.meter() != null ? facts.meter().acquiring() : null;
    }

    /** A call that ends before it asked Redis for anything: counted with no wait. */
    private void failedToStart(LockEvents.Outcome outcome, Object acquiring) {
        if (facts.meter() != null) {
            facts.meter().acquired(outcome, 0, acquiring);
        }
    }

    private LockedCall newCall(
            String[] names, RedissonClient redisson, long owner, Object acquiring, List<LockedCall> keptForScope) {
        RLock[] locks = new RLock[names.length];
        for (int i = 0; i < names.length; i++) {
            locks[i] = kind.lock(redisson, names[i]);
        }
        LockedCall call =
                new LockedCall(facts, locks, owner, fenced, turns, handOff, ThreadCalls.current(), keptForScope);
        call.startedAcquiring(acquiring);
        return call;
    }
}
