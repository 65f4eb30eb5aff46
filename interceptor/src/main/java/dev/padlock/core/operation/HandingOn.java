package dev.padlock.core.operation;

import dev.padlock.LockLost;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.lease.LockLosses;
import dev.padlock.core.redis.Acquisition;
import dev.padlock.core.redis.LockCommands;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * How a key passes from one caller of this application to the next, in Redis: a finishing call <em>hands on</em> its
 * hold when Redis confirmed it and {@link HandOff} allows ({@link #handOnOrUnlock}); the next <em>adopts</em> it and
 * asks Redis at once whether it is still held ({@link #check}), or, when it cannot adopt it any more, gives it back
 * ({@link #giveBack}). A key unlocked while other applications wait for it in Redis has this application's next caller
 * <em>give way</em> before it asks ({@link #unlock}). The per-call state and the decision are {@link
 * dev.padlock.core.call.CallTurns}'; the rules, {@link HandOff}; the contract, {@code docs/guides/hot-keys.md}. One per
 * engine, kept by {@link Releaser}.
 *
 * <p>Giving way: after unlocking a key that callers of this application wait for, it asks Redis whether another
 * application waits for it too; if so, the next caller here gives way before asking Redis, so that the other
 * application takes the key rather than losing a race to a caller that was ready in this JVM before the unlock was even
 * answered. It gives way for two round trips of the unlock; when several others wait, for as long as its chain held
 * the key, once per other application but one ({@link HandOff#sitOutNanos}), so that turns go round.
 */
final class HandingOn {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /** The least a next caller gives way, and the most (however slow the unlock's round trip was). */
    private static final long MIN_YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(250);

    /** How many of the unlock's round trips the next caller gives way; see {@link #yieldNanos}. */
    private static final int YIELD_ROUND_TRIPS = 2;

    private static final long MAX_YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final RedisClientSource client;

    /**
     * Whether the next caller gives way to other applications after an unlock: always, but in the control of a test
     * that shows what happens without it (the application wins its key straight back); see {@code EngineOptions}.
     */
    private final boolean givesWay;

    private final LockCommands commands;
    private final LongSupplier ticker;

    HandingOn(RedisClientSource client, boolean givesWay, LockCommands commands, LongSupplier ticker) {
        this.client = client;
        this.givesWay = givesWay;
        this.commands = commands;
        this.ticker = ticker;
    }

    /**
     * Releases lock {@code index}: hands it on when {@link HandOff} allows and Redis confirmed it while the call held
     * it, else unlocks it. Completes once Redis answered for the call's hold.
     */
    CompletableFuture<Void> handOnOrUnlock(LockedCall call, int index) {
        if (!call.turns.hasLocalWaiters(index) || !call.turns.mayHandOn(index, ticker.getAsLong())) {
            return unlock(call, index); // the common case, an uncontended key
        }
        CompletableFuture<Boolean> check = call.turns.checkOf(index);
        if (check == null || check.isCompletedExceptionally()) {
            // nothing confirmed the hold since the call took it from Redis: ask now, before anyone starts on it
            check = commands.stillHeld(call.locks[index], call.ownerOf(index));
        }
        return check.handle((held, failure) -> failure == null ? held : null).thenCompose(held -> {
            if (held == null) {
                return unlock(call, index); // Redis could not say: the unlock tells
            }
            if (!held) {
                return report(call, LockLosses.lostAtRelease(call, index)); // gone: nothing to unlock or hand on
            }
            HandOff.Hold hold = call.turns.holdToHandOn(index);
            if (!call.turns.handOn(index, hold)) {
                return unlock(call, index); // nobody waits any more
            }
            return hold.confirmed()
                    .handle((stillHeld, failure) -> {
                        if (failure != null) {
                            return LockLosses.releaseFailed(call, index, failure);
                        }
                        return Boolean.TRUE.equals(stillHeld) ? null : LockLosses.lostAtRelease(call, index);
                    })
                    .thenCompose(loss -> report(call, loss));
        });
    }

    /**
     * Unlocks lock {@code index} in Redis, owner-checked, then passes its turn on. When callers of this application
     * wait for the key, asks at the same time whether another application waits for it in Redis; if one does, the
     * next caller here gives way before asking Redis (see the class comment).
     */
    CompletableFuture<Void> unlock(LockedCall call, int index) {
        String key = call.locks[index].getName();
        CompletableFuture<Long> others = givesWay && call.turns.hasLocalWaiters(index) ? listeners(call, key) : null;
        long sent = ticker.getAsLong();
        CompletableFuture<Void> unlock = commands.unlock(call.locks[index], call.ownerOf(index));
        CompletableFuture<LockLost> loss;
        if (others == null) {
            loss = unlock.handle((ignored, failure) -> {
                call.turns.passTurn(index);
                return failure == null ? null : LockLosses.releaseFailed(call, index, failure);
            });
        } else {
            loss = unlock.handle((ignored, failure) -> failure).thenCombine(others, (failure, listening) -> {
                long now = ticker.getAsLong();
                long yield = 0;
                if (listening > 0) {
                    yield = yieldNanos(now - sent);
                    yield = Math.max(yield, call.turns.sitOutNanos(index, listening, now));
                }
                call.turns.passTurn(index, yield);
                return failure == null ? null : LockLosses.releaseFailed(call, index, failure);
            });
        }
        return loss.thenCompose(lost -> report(call, lost));
    }

    /** How many clients listen for the key's release besides this application (0 when that cannot be asked). */
    private CompletableFuture<Long> listeners(LockedCall call, String key) {
        RedissonClient redisson = client.getNow();
        if (redisson == null) {
            return CompletableFuture.completedFuture(0L);
        }
        try {
            return call.facts
                    .kind()
                    .listeners(redisson, key)
                    .toCompletableFuture()
                    .exceptionally(failure -> 0L);
        } catch (Throwable e) {
            // an Error too: the unlock that follows must be sent
            return CompletableFuture.completedFuture(0L);
        }
    }

    /**
     * How long the next caller gives way: two round trips of the unlock, the time another application's waiter needs
     * to hear of the release and ask for the key (it heard when Redis ran the unlock, before this application heard
     * the answer); at least 250 µs, at most 5 ms. Longer is not fairer: while this application's caller gives way it
     * does not wait in Redis either, so a short chain of the application that took the key could end meanwhile,
     * find nobody listening, and take the key straight back itself.
     */
    private static long yieldNanos(long roundTripNanos) {
        return Math.max(MIN_YIELD_NANOS, Math.min(MAX_YIELD_NANOS, YIELD_ROUND_TRIPS * roundTripNanos));
    }

    /**
     * A hold handed to a call that cannot adopt it any more: unlocked in Redis, owner-checked, and the unlock's answer
     * given to the call that handed it on, as an adopter's check would have been.
     */
    static CompletableFuture<Void> giveBack(LockCommands commands, RLock lock, HandOff.Hold hold) {
        return commands.unlock(lock, hold.owner()).handle((ignored, failure) -> {
            Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
            if (cause == null) {
                hold.confirmed().complete(true);
            } else if (cause instanceof IllegalMonitorStateException) {
                hold.confirmed().complete(false);
            } else {
                hold.confirmed().completeExceptionally(cause);
            }
            return null;
        });
    }

    /**
     * Asks Redis whether the owner of lock {@code index} still holds it, while {@code call} holds it; with {@code
     * handed}, the hold it was handed, whose previous holder waits for the answer. "Not held" is a loss of this call
     * ({@code HAND_OFF} for an adopted hold, {@code RENEWAL} otherwise), recorded before the previous holder and a
     * release of this call hear the answer.
     */
    static void check(LockCommands commands, LockedCall call, int index, HandOff.Hold handed) {
        call.beginCheck();
        CompletableFuture<Boolean> check = commands.stillHeld(call.locks[index], call.ownerOf(index));
        call.turns.checked(index, check);
        check.whenComplete((held, failure) -> {
            Throwable cause = failure == null ? null : Acquisition.unwrap(failure);
            try {
                if (cause == null && !Boolean.TRUE.equals(held)) {
                    LockLosses.lostWhileHeld(
                            call,
                            index,
                            handed != null ? LockLost.Detection.HAND_OFF : LockLost.Detection.RENEWAL,
                            null);
                }
            } finally {
                if (handed != null) {
                    if (cause == null) {
                        handed.confirmed().complete(Boolean.TRUE.equals(held));
                    } else {
                        handed.confirmed().completeExceptionally(cause);
                    }
                }
                call.renewalAnswered(cause);
            }
        });
    }

    /** Reports {@code loss}, if any, on Padlock's event thread; completes once observers heard it. */
    static CompletableFuture<Void> report(LockedCall call, LockLost loss) {
        return loss == null ? DONE : call.facts.reporter().reportLater(loss);
    }
}
