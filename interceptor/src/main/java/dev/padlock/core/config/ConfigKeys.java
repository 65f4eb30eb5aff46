package dev.padlock.core.config;

import java.util.List;

/**
 * Every {@code padlock.*} key Padlock reads, in one place, so messages, readers and the integrations name a key
 * the same way. The generated configuration reference (docs/reference/configuration.md) lists the same keys;
 * {@code ConfigReferenceTest} (docs module) fails the build when they drift apart.
 */
public final class ConfigKeys {

    /** Prepended to every lock name; default {@code padlock:}. */
    public static final String KEY_PREFIX = "padlock.key-prefix";
    /** How long a caller waits for a lock when neither the lock nor its annotation says; default 5 s. */
    public static final String WAIT_TIME = "padlock.wait-time";
    /** A fixed lease for every lock, or {@code watchdog} (the default). */
    public static final String LEASE_TIME = "padlock.lease-time";
    /** {@code warn} (the default) or {@code throw}: what a call does when its lock was lost while it ran. */
    public static final String ON_LEASE_LOST = "padlock.on-lease-lost";
    /**
     * {@code after-transaction} (the default) or {@code on-return}: whether a call that ends inside its caller's JTA
     * transaction keeps its lock until that transaction completes.
     */
    public static final String RELEASE = "padlock.release";
    /** Where {@code @Locked} sits among interceptors; read at deployment (at build time on Quarkus). */
    public static final String INTERCEPTOR_PRIORITY = "padlock.interceptor-priority";
    /** The lease of watchdog-mode locks, 1 s to 10 years; wins over a config file's {@code lockWatchdogTimeout}. */
    public static final String WATCHDOG_TIMEOUT = "padlock.watchdog-timeout";

    public static final String REDIS_ADDRESS = "padlock.redis.address";
    public static final String REDIS_MODE = "padlock.redis.mode";
    public static final String REDIS_NODES = "padlock.redis.nodes";
    public static final String REDIS_MASTER_NAME = "padlock.redis.sentinel.master-name";
    public static final String REDIS_USERNAME = "padlock.redis.username";
    public static final String REDIS_PASSWORD = "padlock.redis.password";
    public static final String REDIS_DATABASE = "padlock.redis.database";
    public static final String REDIS_CONFIG_FILE = "padlock.redis.config-file";
    /**
     * Whether acquisitions, renewals and lease extensions wait for a replica to confirm them where the master has
     * replicas; default true. Wins over a config file's {@code checkLockSyncedSlaves}.
     */
    public static final String REDIS_REPLICA_CONFIRMATION = "padlock.redis.replica-confirmation";
    /** How long such a confirmation is waited for; default 1 s. Wins over a config file's {@code slavesSyncTimeout}. */
    public static final String REDIS_REPLICA_TIMEOUT = "padlock.redis.replica-timeout";
    /**
     * {@code warn} (the default), {@code not-ready} or {@code fail}: what Padlock does when its server check finds
     * Redis set up so that it can void a lock. Applies to an application's own client too.
     */
    public static final String REDIS_UNSAFE_SERVER = "padlock.redis.unsafe-server";

    /**
     * How many times in a row a held key passes to the next caller of the same application waiting for it, staying
     * held in Redis, before it is unlocked there for other applications; 0 turns the hand-off off.
     */
    public static final String HAND_OFF_LIMIT = "padlock.hand-off-limit";
    /** How long such a chain of hand-offs may keep a key from when it was taken from Redis; 0 turns it off. */
    public static final String HAND_OFF_BUDGET = "padlock.hand-off-budget";

    /**
     * The keys that say which Redis to reach. When none is set, an integration may point Padlock at a Redis it
     * knows of (Quarkus: {@code quarkus.redis.hosts} or a Dev Service).
     */
    public static final List<String> REDIS_SERVERS = List.of(REDIS_ADDRESS, REDIS_MODE, REDIS_NODES, REDIS_CONFIG_FILE);

    /** The keys a {@link #REDIS_CONFIG_FILE} replaces: the file describes the whole connection. */
    public static final List<String> REDIS_CONNECTION = List.of(
            REDIS_ADDRESS, REDIS_MODE, REDIS_NODES, REDIS_MASTER_NAME, REDIS_USERNAME, REDIS_PASSWORD, REDIS_DATABASE);

    /** Every key that describes Padlock's own client; an application's own client makes them all moot. */
    public static final List<String> CLIENT = List.of(
            REDIS_ADDRESS,
            REDIS_MODE,
            REDIS_NODES,
            REDIS_MASTER_NAME,
            REDIS_USERNAME,
            REDIS_PASSWORD,
            REDIS_DATABASE,
            REDIS_CONFIG_FILE,
            WATCHDOG_TIMEOUT,
            REDIS_REPLICA_CONFIRMATION,
            REDIS_REPLICA_TIMEOUT);

    /** Per-lock properties, for {@link #perLock}: {@code padlock.locks."<name>".<property>}. */
    public static final String TYPE = "type";

    public static final String LOCK_WAIT_TIME = "wait-time";
    public static final String LOCK_LEASE_TIME = "lease-time";
    public static final String ON_FAILURE = "on-failure";
    public static final String LOCK_ON_LEASE_LOST = "on-lease-lost";
    public static final String LOCK_RELEASE = "release";
    public static final String LOCK_HAND_OFF_LIMIT = "hand-off-limit";
    public static final String LOCK_HAND_OFF_BUDGET = "hand-off-budget";
    /** The least time a lock stays held from its acquisition (run-once jobs); per lock only. */
    public static final String LOCK_HOLD_AT_LEAST = "hold-at-least";
    /**
     * How much longer than its lease a lock's key lives in Redis, so that a holder that vanished without releasing
     * keeps the key blocked while its last writes drain; per lock only.
     */
    public static final String LOCK_DELAY = "lock-delay";

    private ConfigKeys() {}

    /** {@code padlock.locks."<lock>".<property>}: the quoted form, which works for any lock name. */
    public static String perLock(String lock, String property) {
        return "padlock.locks.\"" + lock + "\"." + property;
    }

    /** {@code padlock.locks.<lock>.<property>}: the unquoted form, also read for names without dots. */
    static String perLockUnquoted(String lock, String property) {
        return "padlock.locks." + lock + "." + property;
    }
}
