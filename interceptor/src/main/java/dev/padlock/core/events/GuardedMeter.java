package dev.padlock.core.events;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link LockEvents.Meter} whose failures stay its own: a metrics or tracing library's exception (a registry closed under the
 * application, a bug) must not fail a call, stop a release or a renewal. Logged once per meter, then ignored.
 */
public final class GuardedMeter implements LockEvents.Meter {

    private static final System.Logger LOG = System.getLogger(GuardedMeter.class.getName());

    private final LockEvents.Meter meter;
    private final String lockName;
    private final AtomicBoolean failed = new AtomicBoolean();

    private GuardedMeter(LockEvents.Meter meter, String lockName) {
        this.meter = meter;
        this.lockName = lockName;
    }

    /** The method's meter, guarded; {@code null} when the events give none (the engine then skips every call). */
    public static LockEvents.Meter of(LockEvents events, String lockName, LockType type) {
        LockEvents.Meter meter;
        try {
            meter = events.meter(lockName, type);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "Padlock's metrics for lock " + lockName + " are off", e);
            return null;
        }
        return meter == null ? null : new GuardedMeter(meter, lockName);
    }

    private void failed(Throwable e) {
        if (failed.compareAndSet(false, true)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "A metric of lock " + lockName + " could not be recorded; the lock works, and this is logged once",
                    e);
        }
    }

    @Override
    public Object acquiring() {
        try {
            return meter.acquiring();
        } catch (Throwable e) {
            failed(e);
            return null;
        }
    }

    @Override
    public void acquired(LockEvents.Outcome outcome, long waitNanos, Object acquiring) {
        try {
            meter.acquired(outcome, waitNanos, acquiring);
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void released(long heldNanos) {
        try {
            meter.released(heldNanos);
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void lost(LockLost.Detection detection) {
        try {
            meter.lost(detection);
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void expired() {
        try {
            meter.expired();
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void renewed() {
        try {
            meter.renewed();
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void renewalFailed() {
        try {
            meter.renewalFailed();
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void queued() {
        try {
            meter.queued();
        } catch (Throwable e) {
            failed(e);
        }
    }

    @Override
    public void dequeued() {
        try {
            meter.dequeued();
        } catch (Throwable e) {
            failed(e);
        }
    }
}
