package dev.padlock.core.lease;

import dev.padlock.LockLost;
import dev.padlock.core.call.LockedCall;
import dev.padlock.core.server.ServerWatch;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * What a master's restart or clock jump, as {@link ServerWatch} sees them, does to the locks {@link LeaseRenewal}
 * watches on that master: reported lost ({@code RESTART}, {@code CLOCK_JUMP}), or their deadlines moved earlier.
 */
final class ServerLosses implements ServerWatch.Holders {

    /** The calls {@link LeaseRenewal} watches. */
    private final Set<LockedCall> held;

    private final LongSupplier ticker;
    /** When a call needs the renewal chain next ({@link System#nanoTime}). */
    private final ToLongFunction<LockedCall> nextAttention;
    /** Makes the renewal chain wake by a time ({@link System#nanoTime}). */
    private final LongConsumer wakeBy;

    ServerLosses(
            Set<LockedCall> held, LongSupplier ticker, ToLongFunction<LockedCall> nextAttention, LongConsumer wakeBy) {
        this.held = held;
        this.ticker = ticker;
        this.nextAttention = nextAttention;
        this.wakeBy = wakeBy;
    }

    @Override
    public boolean anyHeld() {
        return !held.isEmpty();
    }

    /**
     * A master came back as a new process: every lock held on it is lost (a server without persistence forgot it), said
     * now and its turn passed on, so nothing is handed on from it. A call whose release began is left to its release,
     * which finds the key gone itself.
     */
    @Override
    public void restarted(ServerWatch.Node node) {
        for (LockedCall call : held) {
            if (call.isReleased() || call.isLapsing()) {
                continue;
            }
            int count = call.takenCount();
            for (int i = 0; i < count; i++) {
                if (!call.isLost(i) && !call.sharesHold(i) && node.holds(call.locks[i].getName())) {
                    LockLosses.lostWhileHeld(call, i, LockLost.Detection.RESTART, null);
                }
            }
        }
    }

    /**
     * A master's clock jumped forward by {@code nanos}: every lock held there expires that much earlier than its
     * deadline says. The deadlines move earlier by as much; a lock whose deadline has passed is lost, said now; the
     * others are renewed sooner.
     */
    @Override
    public void clockJumped(ServerWatch.Node node, long nanos) {
        long now = ticker.getAsLong();
        long next = Long.MAX_VALUE;
        for (LockedCall call : held) {
            if (call.isReleased() || call.isLapsing()) {
                continue;
            }
            int count = call.takenCount();
            for (int i = 0; i < count; i++) {
                if (call.isLost(i) || call.sharesHold(i) || !node.holds(call.locks[i].getName())) {
                    continue;
                }
                long deadline = call.shortenDeadline(i, nanos);
                if (deadline != 0 && now - deadline >= 0) {
                    LockLosses.lostWhileHeld(call, i, LockLost.Detection.CLOCK_JUMP, null);
                }
            }
            long attention = nextAttention.applyAsLong(call);
            if (attention - next < 0) {
                next = attention;
            }
        }
        wakeBy.accept(next);
    }
}
