package dev.padlock.core.call;

import dev.padlock.LockContext;
import dev.padlock.core.PadlockThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What stops a call's work when one of its locks is found lost while it runs ({@code LockLosses.lostWhileHeld}): with
 * {@code on-lease-lost=interrupt}, the thread running its body (interrupted) and the result it returned (cancelled);
 * whatever the policy, the actions its body gave {@link LockContext#onLoss} (a JDBC statement's {@code cancel}). One
 * per call that needs it: every call with the interrupt policy, and a call of another policy once its body registers
 * an action; none otherwise, so a call that stops nothing allocates nothing.
 *
 * <p>Nothing is stopped after the call's work ended ({@link #end}): the body's thread is interrupted only while the
 * body runs on it, under this object's lock, and the interrupt is cleared when the body returns; cancellations and
 * actions run on a Padlock thread (never a renewal's or Redisson's: a driver's cancel may wait for its server), an
 * action under this lock, so that closing its registration waits for it rather than race it.
 */
public final class WorkStopper {

    private static final System.Logger LOG = System.getLogger(WorkStopper.class.getName());

    /** Where cancellations and actions run: losses are rare, so threads are made when needed and end when idle. */
    private static final class Stops {
        static final Executor EXECUTOR = new ThreadPoolExecutor(
                0,
                Integer.MAX_VALUE,
                30,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                PadlockThreads.daemon("padlock-stop"));
    }

    /**
     * The failure a stopped result is ended with, which the caller never sees: the operation turns it into {@code
     * LockLostException}. No stack trace, for it says nothing about where it was made.
     */
    public static final class Stopped extends CancellationException {
        public Stopped() {
            super("the call's lock was lost");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /** The method as messages name it. */
    private final String method;

    private final boolean interrupts;

    /** The thread running the body while it runs, with the interrupt policy; guarded by this. */
    private Thread body;
    /** Whether this interrupted {@link #body}, so that its interrupt is cleared when the body returns. */
    private boolean interruptedBody;
    /** What cancels the call's result, with the interrupt policy, once the body returned one. */
    private Runnable cancelResult;
    /** The body's actions ({@link LockContext#onLoss}), in the order given; {@code null} when none. */
    private List<Registered> actions;

    private boolean stopped;
    private volatile boolean ended;

    /**
     * @param method the call's method, as messages name it
     * @param interrupts whether the call's policy is {@code interrupt}: its thread and result are stopped too
     */
    public WorkStopper(String method, boolean interrupts) {
        this.method = method;
        this.interrupts = interrupts;
    }

    /**
     * The body begins on the current thread: it is interrupted at a loss from now on (with the interrupt policy), at
     * once if the lock was lost already.
     */
    public synchronized void bodyRuns() {
        if (!interrupts || ended) {
            return;
        }
        body = Thread.currentThread();
        if (stopped) {
            interruptBody();
        }
    }

    /**
     * The body returned on this thread: no interrupt of this stopper reaches it from now on, and one that did is
     * cleared, so that it cannot leak into the caller's next work. An interrupt from elsewhere is left as it is.
     */
    public void bodyReturned() {
        boolean clear;
        synchronized (this) {
            body = null;
            clear = interruptedBody;
            interruptedBody = false;
        }
        if (clear) {
            Thread.interrupted();
        }
    }

    /**
     * The body returned a result whose completion the call waits for: {@code cancel} ends it at a loss, with {@link
     * Stopped} (with the interrupt policy; nothing happens otherwise). Run at once, on a Padlock thread, if the lock was
     * lost already.
     */
    public void stopsResultWith(Runnable cancel) {
        if (!interrupts) {
            return;
        }
        synchronized (this) {
            if (ended) {
                return;
            }
            cancelResult = cancel;
            if (!stopped) {
                return;
            }
        }
        Stops.EXECUTOR.execute(this::runStops);
    }

    /**
     * Adds an action the body gave {@link LockContext#onLoss}; false when the lock was lost already (the action is not
     * kept, and the caller says so), or the call's work ended.
     */
    public synchronized boolean add(Registered action) {
        if (stopped || ended) {
            return false;
        }
        if (actions == null) {
            actions = new ArrayList<>(2);
        }
        actions.add(action);
        return true;
    }

    /** Removes an action the body added, as its registration is closed; after that it never runs. */
    public synchronized void remove(Registered action) {
        if (actions != null) {
            actions.remove(action);
        }
    }

    /**
     * A lock of the call was found lost while its work runs: interrupts the body's thread now (with the interrupt
     * policy), and runs the cancellation and the actions on a Padlock thread. Once only; nothing after {@link #end}.
     */
    public void stop() {
        synchronized (this) {
            if (stopped || ended) {
                return;
            }
            stopped = true;
            if (body != null) {
                interruptBody();
            }
            if (cancelResult == null && actions == null) {
                return;
            }
        }
        Stops.EXECUTOR.execute(this::runStops);
    }

    /**
     * The call's work ended (its release or lapse began, or its release was deferred): nothing is stopped after. Takes
     * no lock, for the call's own lock is held here; a registration's close is what waits for an action under way.
     */
    public void end() {
        ended = true;
    }

    private void interruptBody() {
        interruptedBody = true;
        body.interrupt();
    }

    /**
     * The cancellation first, outside this lock (the result's dependents run inline and may end the call); then the
     * actions under it, so that a registration's close waits for one under way.
     */
    private void runStops() {
        Runnable cancel;
        synchronized (this) {
            cancel = ended ? null : cancelResult;
            cancelResult = null;
        }
        if (cancel != null) {
            cancel.run();
        }
        synchronized (this) {
            List<Registered> toRun = ended ? null : actions;
            actions = null;
            if (toRun == null) {
                return;
            }
            for (Registered action : toRun) {
                try {
                    action.action.stop();
                } catch (Throwable e) {
                    // The body's own action failed (a driver that cannot cancel): the others still run.
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "An action " + method + " gave LockContext.onLoss failed as its lock was lost; the other"
                                    + " actions still ran. Have the action handle its own failure (a statement"
                                    + " already closed, a driver without cancel), so that the work it stops ends.",
                            e);
                }
            }
        }
    }

    /** An action the body gave {@link LockContext#onLoss}, until its registration is closed. */
    public static final class Registered {
        final LockContext.LossAction action;

        public Registered(LockContext.LossAction action) {
            this.action = action;
        }
    }
}
