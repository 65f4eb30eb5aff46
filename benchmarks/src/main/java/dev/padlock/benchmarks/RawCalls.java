package dev.padlock.benchmarks;

import dev.padlock.LockType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * The raw side: the same critical section with Redisson called by hand, from a bean of the same container so
 * that both sides pay the same CDI proxy and only {@code @Locked} differs.
 */
@ApplicationScoped
public class RawCalls {

    /** Matches {@code @Locked(waitTime = "30s", leaseTime = "30s")} on the Padlock side. */
    static final long WAIT_SECONDS = 30;

    static final long LEASE_SECONDS = 30;

    private RedissonClient client;

    /** A client of its own, configured like Padlock's, so neither side shares connections with the other. */
    public void use(RedissonClient client) {
        this.client = client;
    }

    /** What most code does: {@code lock(); try { ... } finally { unlock(); }}, renewed by Redisson's watchdog. */
    public void lockUnlock(LockType type, String name, Runnable section) {
        RLock lock = lock(type, name);
        lock.lock();
        try {
            section.run();
        } finally {
            lock.unlock();
        }
    }

    /** The careful form: a bounded wait and a fixed lease, no watchdog. */
    public void tryLockWithLease(LockType type, String name, Runnable section) throws InterruptedException {
        RLock lock = lock(type, name);
        if (!lock.tryLock(WAIT_SECONDS, LEASE_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " was not acquired within " + WAIT_SECONDS + "s");
        }
        try {
            section.run();
        } finally {
            lock.unlock();
        }
    }

    private RLock lock(LockType type, String name) {
        switch (type) {
            case FAIR:
                return client.getFairLock(name);
            case READ:
                return client.getReadWriteLock(name).readLock();
            case REENTRANT:
                return client.getLock(name);
            default:
                throw new IllegalArgumentException("no raw benchmark for " + type);
        }
    }

    /** The call of a row on the container's proxy; own keys are built per call, as a caller would. */
    static Call callFor(RawCalls proxy, Row row) {
        LockType type = row.type();
        String base = "raw:bench-" + type.name().toLowerCase(java.util.Locale.ROOT);
        boolean own = row.contention() == Row.Contention.OWN_KEYS;
        String oneKey = base + "-one";
        String ownPrefix = base + ":";
        if (row.lease() == Row.Lease.FIXED) {
            return own
                    ? (thread, section) -> proxy.tryLockWithLease(type, ownPrefix + thread, section)
                    : (thread, section) -> proxy.tryLockWithLease(type, oneKey, section);
        }
        return own
                ? (thread, section) -> proxy.lockUnlock(type, ownPrefix + thread, section)
                : (thread, section) -> proxy.lockUnlock(type, oneKey, section);
    }
}
