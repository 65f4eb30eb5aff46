package dev.padlock.core.config;

/**
 * What Padlock does when the server check finds Redis set up so that it can void a lock
 * ({@code padlock.redis.unsafe-server}): an eviction policy that may evict lock keys under a {@code maxmemory}, or
 * replicas without {@code min-replicas-to-write} while locks are confirmed with replicas. What the check could not
 * check, and a server without persistence, are only said, whatever this says.
 */
public enum UnsafeServerPolicy {
    /**
     * A WARN line naming the setting, its value, the node and the fix; readiness shows the finding and stays up. The
     * default: the cloud services' own defaults ({@code volatile-lru}) would otherwise take running applications out of
     * service on upgrade, for a server that may never fill up.
     */
    WARN,
    /** As {@link #WARN}, and readiness is down while the latest check finds the server unsafe (and until it checked). */
    NOT_READY,
    /**
     * As {@link #NOT_READY}, and the start-up waits for the first check and stops when it finds the server unsafe. A
     * server first reached, or found unsafe, after the start-up can only keep readiness down.
     */
    FAIL
}
