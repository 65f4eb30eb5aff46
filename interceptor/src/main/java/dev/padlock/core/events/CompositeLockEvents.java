package dev.padlock.core.events;

import dev.padlock.LockLost;
import dev.padlock.LockType;

/**
 * Two observers of the engine's locks, each told every event: what {@link #of} builds when an application
 * has more than one (Micrometer's meters and OpenTelemetry's spans). Each part is guarded on its own, so one that
 * fails does not silence the other. Each part keeps what it needs of a call's start; only parts that need something
 * cost an allocation per call.
 */
public final class CompositeLockEvents implements LockEvents {

    private final LockEvents first;
    private final LockEvents second;

    private CompositeLockEvents(LockEvents first, LockEvents second) {
        this.first = first;
        this.second = second;
    }

    /**
     * Both observers hear every event (say Micrometer's meters and OpenTelemetry's spans); either may be {@link
     * LockEvents#NONE}, and then the other is returned as it is, so one observer costs what it did alone.
     */
    public static LockEvents of(LockEvents first, LockEvents second) {
        if (first == NONE) {
            return second;
        }
        if (second == NONE) {
            return first;
        }
        return new CompositeLockEvents(first, second);
    }

    @Override
    public Meter meter(String lockName, LockType type) {
        Meter a = GuardedMeter.of(first, lockName, type);
        Meter b = GuardedMeter.of(second, lockName, type);
        if (a == null) {
            return b;
        }
        return b == null ? a : new CompositeMeters(a, b);
    }

    private record CompositeMeters(Meter first, Meter second) implements Meter {

        @Override
        public Object acquiring() {
            Object a = first.acquiring();
            Object b = second.acquiring();
            return a == null && b == null ? null : new Object[] {a, b};
        }

        @Override
        public void acquired(Outcome outcome, long waitNanos, Object acquiring) {
            Object[] starts = (Object[]) acquiring;
            first.acquired(outcome, waitNanos, starts == null ? null : starts[0]);
            second.acquired(outcome, waitNanos, starts == null ? null : starts[1]);
        }

        @Override
        public void released(long heldNanos) {
            first.released(heldNanos);
            second.released(heldNanos);
        }

        @Override
        public void lost(LockLost.Detection detection) {
            first.lost(detection);
            second.lost(detection);
        }

        @Override
        public void expired() {
            first.expired();
            second.expired();
        }

        @Override
        public void renewed() {
            first.renewed();
            second.renewed();
        }

        @Override
        public void renewalFailed() {
            first.renewalFailed();
            second.renewalFailed();
        }

        @Override
        public void queued() {
            first.queued();
            second.queued();
        }

        @Override
        public void dequeued() {
            first.dequeued();
            second.dequeued();
        }
    }
}
