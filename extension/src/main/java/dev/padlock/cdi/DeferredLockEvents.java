package dev.padlock.cdi;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import dev.padlock.core.events.LockEvents;
import java.util.ArrayList;
import java.util.List;

/**
 * Meters handed to the engine when it is built (after bean discovery), bound to the application's meter registry and
 * tracer once beans can be created (after deployment validation), or to {@link LockEvents#NONE} when it has neither.
 * Until then nothing is counted: no {@code @Locked} call runs before the application is deployed. A call pays one
 * volatile read for the indirection.
 *
 * <p>Only meters asked for before the binding are kept here, and only until it: the deployed methods' few. Meters
 * asked for later (a method planned late, a {@code Locks} call planned per call because its settings are not kept)
 * come straight from the bound events, so nothing piles up here for the life of the application.
 */
final class DeferredLockEvents implements LockEvents {

    private static final System.Logger LOG = System.getLogger(DeferredLockEvents.class.getName());

    private final List<Deferred> meters = new ArrayList<>();
    private volatile LockEvents bound;

    @Override
    public Meter meter(String lockName, LockType type) {
        LockEvents events = bound;
        if (events == null) {
            synchronized (this) {
                events = bound;
                if (events == null) {
                    Deferred meter = new Deferred(lockName, type);
                    meters.add(meter);
                    return meter;
                }
            }
        }
        return events.meter(lockName, type);
    }

    /** How many meters wait for {@link #bind}, each kept until then: for tests that count what is kept. */
    synchronized int awaitingBinding() {
        return meters.size();
    }

    /**
     * From now on, the meters count in {@code events}; {@link LockEvents#NONE} when the application has nothing to
     * count in, which also ends the keeping of meters.
     */
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
        public void expired() {
            Meter m = target;
            if (m != null) {
                m.expired();
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
