package dev.padlock.core;

import dev.padlock.LockLost;
import dev.padlock.LockType;

/**
 * Two observers of the engine's locks, each told every event: what {@link LockEvents#both} builds when an application
 * has more than one (Micrometer's meters and OpenTelemetry's spans). Each part is guarded on its own, so one that
 * fails does not silence the other. Each part keeps what it needs of a call's start; only parts that need something
 * cost an allocation per call.
 */
final class BothLockEvents implements LockEvents {

    private final LockEvents first;
    private final LockEvents second;

    BothLockEvents(LockEvents first, LockEvents second) {
        this.first = first;
        this.second = second;
    }

    @Override
    public Meter meter(String lockName, LockType type) {
        Meter a = GuardedMeter.of(first, lockName, type);
        Meter b = GuardedMeter.of(second, lockName, type);
        if (a == null) {
            return b;
        }
        return b == null ? a : new BothMeters(a, b);
    }

    private record BothMeters(Meter first, Meter second) implements Meter {

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
