package dev.padlock.core.call;

import java.util.List;

/**
 * By lock index, the calls whose holds of the same keys a new call shares instead of asking Redis: the calls it is
 * nested in on this thread, and those that ended inside what it ends inside (its caller's transaction) and keep their
 * locks until that completes. Built with the call, only when there is one (rarely).
 */
final class SharedHolds {

    private final LockedCall[] hosts;
    private final int[] hostIndexes;

    private SharedHolds(int count) {
        hosts = new LockedCall[count];
        hostIndexes = new int[count];
    }

    /**
     * The holds {@code call} shares: of {@code innermost} and the calls it is nested in, then of {@code keptForScope},
     * the first found holding a key taking it; {@code null} when it shares none.
     */
    static SharedHolds of(LockedCall call, LockedCall innermost, List<LockedCall> keptForScope) {
        SharedHolds found = null;
        for (LockedCall host = innermost; host != null; host = host.enclosing()) {
            found = found(found, call, host);
        }
        for (LockedCall host : keptForScope) {
            found = found(found, call, host);
        }
        return found;
    }

    /** Adds the holds {@code host} has of {@code call}'s keys that no call found before holds. */
    private static SharedHolds found(SharedHolds found, LockedCall call, LockedCall host) {
        if (!host.facts.sameEngineAs(call.facts)) {
            return found; // another application's call, run on this thread: its holds are not this one's
        }
        for (int i = 0; i < call.locks.length; i++) {
            int j = host.indexOf(call.locks[i].getName());
            if (j >= 0 && (found == null || found.hosts[i] == null)) {
                if (found == null) {
                    found = new SharedHolds(call.locks.length);
                }
                found.hosts[i] = host;
                found.hostIndexes[i] = j;
            }
        }
        return found;
    }

    /** The call whose hold of lock {@code index} is shared, or {@code null}. */
    LockedCall host(int index) {
        return hosts[index];
    }

    int hostIndex(int index) {
        return hostIndexes[index];
    }

    /**
     * The sharing call's release has begun, {@code count} locks taken: the hosts whose own release waited for it and
     * is due now, by lock index, or {@code null} when none is.
     */
    LockedCall[] stop(int count) {
        LockedCall[] due = null;
        for (int i = 0; i < count; i++) {
            if (hosts[i] != null && hosts[i].sharerEnded()) {
                if (due == null) {
                    due = new LockedCall[count];
                }
                due[i] = hosts[i];
            }
        }
        return due;
    }
}
