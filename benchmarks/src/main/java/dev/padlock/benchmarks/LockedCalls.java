package dev.padlock.benchmarks;

import dev.padlock.LockType;
import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The Padlock side: one {@code @Locked} method per row kind, each running the caller's critical section. The
 * wait matches the raw side's {@code tryLock} wait, so contended rows never fail for a shorter patience.
 */
@ApplicationScoped
public class LockedCalls {

    @Locked(value = "bench-reentrant", key = "{thread}", waitTime = "30s")
    public void reentrantOwnKey(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-reentrant-one", waitTime = "30s")
    public void reentrantOneKey(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-reentrant-lease", key = "{thread}", waitTime = "30s", leaseTime = "30s")
    public void reentrantOwnKeyLease(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-reentrant-lease-one", waitTime = "30s", leaseTime = "30s")
    public void reentrantOneKeyLease(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-fair", key = "{thread}", type = LockType.FAIR, waitTime = "30s")
    public void fairOwnKey(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-fair-one", type = LockType.FAIR, waitTime = "30s")
    public void fairOneKey(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-fair-lease", key = "{thread}", type = LockType.FAIR, waitTime = "30s", leaseTime = "30s")
    public void fairOwnKeyLease(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-fair-lease-one", type = LockType.FAIR, waitTime = "30s", leaseTime = "30s")
    public void fairOneKeyLease(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-read", key = "{thread}", type = LockType.READ, waitTime = "30s")
    public void readOwnKey(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-read-one", type = LockType.READ, waitTime = "30s")
    public void readOneKey(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-read-lease", key = "{thread}", type = LockType.READ, waitTime = "30s", leaseTime = "30s")
    public void readOwnKeyLease(int thread, Runnable section) {
        section.run();
    }

    @Locked(value = "bench-read-lease-one", type = LockType.READ, waitTime = "30s", leaseTime = "30s")
    public void readOneKeyLease(int thread, Runnable section) {
        section.run();
    }

    /** A short call of the renewal-storm burst (watchdog mode, 16 keys in turn). */
    @Locked(value = "storm-short", key = "{key}")
    public void stormShort(int key) {}

    /** The one lock held while renewals are counted. */
    @Locked("storm-held")
    public void stormHeld(Runnable whileHeld) {
        whileHeld.run();
    }

    /**
     * The method of a row on the container's proxy (a reference bound to {@code this} would skip the
     * interceptor), as a call the measuring loop makes without looking anything up.
     */
    static Call callFor(LockedCalls proxy, Row row) {
        boolean own = row.contention() == Row.Contention.OWN_KEYS;
        boolean lease = row.lease() == Row.Lease.FIXED;
        switch (row.type()) {
            case FAIR:
                return lease
                        ? (own ? proxy::fairOwnKeyLease : proxy::fairOneKeyLease)
                        : (own ? proxy::fairOwnKey : proxy::fairOneKey);
            case READ:
                return lease
                        ? (own ? proxy::readOwnKeyLease : proxy::readOneKeyLease)
                        : (own ? proxy::readOwnKey : proxy::readOneKey);
            case REENTRANT:
                return lease
                        ? (own ? proxy::reentrantOwnKeyLease : proxy::reentrantOneKeyLease)
                        : (own ? proxy::reentrantOwnKey : proxy::reentrantOneKey);
            default:
                throw new IllegalArgumentException("no benchmark method for " + row.type());
        }
    }
}
