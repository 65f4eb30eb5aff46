package dev.padlock.core.call;

import java.util.List;
import org.redisson.api.RLock;

/**
 * By lock index, the calls whose holds of the same keys a new call shares instead of asking Redis: the calls it is
 * nested in on this thread, and those that ended inside what it ends inside (its caller's transaction) and keep their
 * locks until that completes. Built with the call, only when there is one (rarely).
 */
final class SharedHolds {

    /** A call whose holds another may share, as far as the sharing needs it ({@link LockedCall}). */
    interface Host {

        /** The index of the lock on {@code key} among those this call has taken, or -1. */
        int indexOf(String key);

        /** The call this one is nested in on the thread running its body, or {@code null}. */
        Host enclosingHost();

        /** Whether the two calls run in the same engine (application): only then is a hold shared. */
        boolean sameEngineAs(Host other);

        /** A call sharing a hold of this one ended: true when this call's release waited for it and is due now. */
        boolean sharerEnded();
    }

    private final Host[] hosts;
    private final int[] hostIndexes;

    private SharedHolds(int count) {
        hosts = new Host[count];
        hostIndexes = new int[count];
    }

    /**
     * The holds {@code call} shares: of {@code innermost} and the calls it is nested in, then of {@code keptForScope},
     * the first found holding a key taking it; {@code null} when it shares none.
     */
    static SharedHolds of(Host call, RLock[] locks, Host innermost, List<? extends Host> keptForScope) {
        SharedHolds found = null;
        for (Host host = innermost; host != null; host = host.enclosingHost()) {
            found = found(found, call, locks, host);
        }
        for (Host host : keptForScope) {
            found = found(found, call, locks, host);
        }
        return found;
    }

    /** Adds the holds {@code host} has of {@code call}'s keys that no call found before holds. */
    private static SharedHolds found(SharedHolds found, Host call, RLock[] locks, Host host) {
        if (!host.sameEngineAs(call)) {
            return found; // another application's call, run on this thread: its holds are not this one's
        }
        for (int i = 0; i < locks.length; i++) {
            int j = host.indexOf(locks[i].getName());
            if (j >= 0 && (found == null || found.hosts[i] == null)) {
                if (found == null) {
                    found = new SharedHolds(locks.length);
                }
                found.hosts[i] = host;
                found.hostIndexes[i] = j;
            }
        }
        return found;
    }

    /** The call whose hold of lock {@code index} is shared, or {@code null}. */
    Host host(int index) {
        return hosts[index];
    }

    int hostIndex(int index) {
        return hostIndexes[index];
    }

    /**
     * The sharing call's release has begun, {@code count} locks taken: the hosts whose own release waited for it and
     * is due now, by lock index, or {@code null} when none is.
     */
    Host[] stop(int count) {
        Host[] due = null;
        for (int i = 0; i < count; i++) {
            if (hosts[i] != null && hosts[i].sharerEnded()) {
                if (due == null) {
                    due = new Host[count];
                }
                due[i] = hosts[i];
            }
        }
        return due;
    }
}
