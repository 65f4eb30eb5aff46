package dev.padlock.cdi;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import dev.padlock.core.LockEvents;
import java.util.ArrayList;
import java.util.List;

/**
 * Meters handed to the engine when it is built (after bean discovery), bound to the application's meter registry and
 * tracer once beans can be created (after deployment validation). Until then nothing is counted: no {@code @Locked} call runs
 * before the application is deployed. A call pays one volatile read for the indirection.
 */
final class DeferredLockEvents implements LockEvents {

    private static final System.Logger LOG = System.getLogger(DeferredLockEvents.class.getName());

    private final List<Deferred> meters = new ArrayList<>();
    private LockEvents bound;

    @Override
    public synchronized Meter meter(String lockName, LockType type) {
        Deferred meter = new Deferred(lockName, type);
        if (bound != null) {
            meter.bind(bound); // a method planned late, on its first call
        } else {
            meters.add(meter);
        }
        return meter;
    }

    /** From now on, the meters count in {@code events}. */
    synchronized void bind(LockEvents events) {
        bound = events;
        meters.forEach(meter -> meter.bind(events));
        meters.clear();
    }

    private static final class Deferred implements Meter {
        private final String lockName;
        private final LockType type;
        private volatile Meter target;

        Deferred(String lockName, LockType type) {
            this.lockName = lockName;
            this.type = type;
        }

        void bind(LockEvents events) {
            try {
                target = events.meter(lockName, type);
            } catch (RuntimeException | LinkageError e) {
                LOG.log(System.Logger.Level.WARNING, "Padlock's metrics for lock " + lockName + " are off", e);
            }
        }

        @Override
        public Object acquiring() {
            Meter m = target;
            return m != null ? m.acquiring() : null;
        }

        @Override
        public void acquired(Outcome outcome, long waitNanos, Object acquiring) {
            Meter m = target;
            if (m != null) {
                m.acquired(outcome, waitNanos, acquiring);
            }
        }

        @Override
        public void released(long heldNanos) {
            Meter m = target;
            if (m != null) {
                m.released(heldNanos);
            }
        }

        @Override
        public void lost(LockLost.Detection detection) {
            Meter m = target;
            if (m != null) {
                m.lost(detection);
            }
        }

        @Override
        public void renewed() {
            Meter m = target;
            if (m != null) {
                m.renewed();
            }
        }

        @Override
        public void renewalFailed() {
            Meter m = target;
            if (m != null) {
                m.renewalFailed();
            }
        }

        @Override
        public void queued() {
            Meter m = target;
            if (m != null) {
                m.queued();
            }
        }

        @Override
        public void dequeued() {
            Meter m = target;
            if (m != null) {
                m.dequeued();
            }
        }
    }
}
