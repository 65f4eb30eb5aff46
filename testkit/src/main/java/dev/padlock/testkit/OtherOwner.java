package dev.padlock.testkit;

import dev.padlock.LockType;
import dev.padlock.core.client.Secrets;
import dev.padlock.core.key.KeyRenderer;
import dev.padlock.testing.RedisServer;
import java.time.Duration;
import java.util.Objects;
import org.redisson.config.Config;

/**
 * Holds a Padlock lock key as another application would, for as long as a test needs it: to drive the code under
 * test into its "not acquired" paths ({@code LockNotAcquiredException}, {@code onFailure = SKIP}).
 *
 * <pre>{@code
 * try (HeldLock held = OtherOwner.at(redis).hold("stock", "A-42")) {       // padlock:stock:A-42
 *     assertThatThrownBy(() -> inventory.reserve("A-42", 1)).isInstanceOf(LockNotAcquiredException.class);
 * }
 * inventory.reserve("A-42", 1);                                             // released: runs
 *
 * try (HeldLock held = OtherOwner.at(redis).type(LockType.WRITE).hold("catalog")) { ... }
 * }</pre>
 *
 * <p>Each {@link #hold} connects its own Redisson client, so the key is held by another owner in Redis, exactly as
 * another JVM would hold it: the application's calls cannot re-enter it. The key is rendered as Padlock renders it
 * ({@code <prefix><name>:<String.valueOf(key), escaped>}), and taken with the Redisson lock Padlock uses for the
 * {@link #type(LockType) type}: Redisson's lock families do not see each other's holders, so hold a {@code FAIR},
 * {@code READ}, {@code WRITE}, {@code SPIN} or {@code FENCED} name with its own type.
 *
 * <p>The key is held with a finite {@link #lease(Duration) lease} that the holder renews while it is open, however
 * long the test takes; {@link HeldLock#close()} releases it and shuts the client down. If the test JVM dies, the
 * key lapses within one lease. Immutable: each setter returns a new instance.
 */
public final class OtherOwner {

    /** Padlock's default {@code padlock.key-prefix}. */
    public static final String DEFAULT_KEY_PREFIX = "padlock:";

    private static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);
    private static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

    private final Config config;
    private final String where;
    /** Texts no message may show: the address's password and the pieces of it a parser may quote alone. */
    private final Secrets secrets;

    private final LockType type;
    private final String keyPrefix;
    private final Duration lease;
    private final Duration waitTime;

    private OtherOwner(
            Config config,
            String where,
            Secrets secrets,
            LockType type,
            String keyPrefix,
            Duration lease,
            Duration waitTime) {
        this.config = config;
        this.where = where;
        this.secrets = secrets;
        this.type = type;
        this.keyPrefix = keyPrefix;
        this.lease = lease;
        this.waitTime = waitTime;
    }

    /**
     * Another owner on the Redis at {@code redisAddress}, e.g. {@code redis://127.0.0.1:6379} (a user and password
     * may be given as {@code redis://user:password@host:port}; {@code rediss://} for TLS).
     */
    public static OtherOwner at(String redisAddress) {
        Objects.requireNonNull(redisAddress, "redisAddress");
        Config config = new Config();
        // One lock, one owner: a few connections are plenty (Redisson's default opens 24 at start-up).
        config.useSingleServer()
                .setAddress(redisAddress)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(1);
        return new OtherOwner(config, Secrets.maskedAddress(redisAddress), Secrets.ofAddress(redisAddress));
    }

    /** Another owner on the test's Redis from {@code padlock-testing}'s {@code RedisExtension}. */
    public static OtherOwner at(RedisServer redis) {
        Objects.requireNonNull(redis, "redis");
        return at(redis.uri());
    }

    /**
     * Another owner connected with a Redisson configuration of its own: for a cluster, sentinels, TLS settings or
     * anything {@link #at(String)} cannot say. The configuration is copied; each {@link #hold} creates a client from
     * it.
     */
    public static OtherOwner using(Config redissonConfig) {
        Objects.requireNonNull(redissonConfig, "redissonConfig");
        return new OtherOwner(
                new Config(redissonConfig), "the Redis of the given Redisson configuration", Secrets.NONE);
    }

    private OtherOwner(Config config, String where, Secrets secrets) {
        this(config, where, secrets, LockType.REENTRANT, DEFAULT_KEY_PREFIX, DEFAULT_LEASE, DEFAULT_WAIT);
    }

    /**
     * The lock type the application uses for the name (its {@code @Locked(type = ...)} or
     * {@code padlock.locks."<name>".type}); default {@link LockType#REENTRANT}. A {@link LockType#READ} hold keeps
     * writers out and lets readers in; every other type keeps every caller of the name out.
     */
    public OtherOwner type(LockType type) {
        return new OtherOwner(config, where, secrets, Objects.requireNonNull(type, "type"), keyPrefix, lease, waitTime);
    }

    /** The application's {@code padlock.key-prefix}; default {@code padlock:}. May be empty. */
    public OtherOwner keyPrefix(String keyPrefix) {
        return new OtherOwner(
                config, where, secrets, type, Objects.requireNonNull(keyPrefix, "keyPrefix"), lease, waitTime);
    }

    /**
     * The lease the key is taken and renewed with (every third of it) while held; default 10 s. It bounds how long
     * the key stays held after the test JVM died; the hold itself lasts until {@link HeldLock#close()}.
     *
     * @throws IllegalArgumentException when under 100 ms
     */
    public OtherOwner lease(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("OtherOwner.lease(" + lease + "): a lease under 100 ms could lapse"
                    + " between two renewals; use at least 100 ms (the default is 10 s)");
        }
        return new OtherOwner(config, where, secrets, type, keyPrefix, lease, waitTime);
    }

    /**
     * How long {@link #hold} waits for the key when someone holds it (the application under test, still finishing a
     * call); default 10 s. {@link Duration#ZERO} tries once.
     */
    public OtherOwner waitTime(Duration waitTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        if (waitTime.isNegative()) {
            throw new IllegalArgumentException("OtherOwner.waitTime(" + waitTime + "): must not be negative");
        }
        return new OtherOwner(config, where, secrets, type, keyPrefix, lease, waitTime);
    }

    /**
     * Holds the lock {@code name} without a key: Redis key {@code <prefix><name>}, as a {@code @Locked(value = name)}
     * method without {@code key} or {@code Locks.on(name)} takes it.
     *
     * @throws IllegalStateException when the key could not be taken within the {@link #waitTime(Duration) wait}
     */
    public HeldLock hold(String name) {
        return take(redisBase(name));
    }

    /**
     * Holds the lock {@code name} for {@code key}: Redis key {@code <prefix><name>:<key>}, rendered and escaped as
     * Padlock renders {@code @Locked(value = name, key = "{sku}")} for an argument {@code key}, or
     * {@code Locks.on(name, key)}.
     *
     * @param key rendered with {@code String.valueOf}; not null
     * @throws IllegalStateException when the key could not be taken within the {@link #waitTime(Duration) wait}
     */
    public HeldLock hold(String name, Object key) {
        Objects.requireNonNull(key, "key (Padlock never locks a null key)");
        return take(KeyRenderer.redisKey(redisBase(name), key));
    }

    private String redisBase(String name) {
        if (name == null || name.isBlank() || name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
            throw new IllegalArgumentException("OtherOwner.hold(" + (name == null ? "null" : "\"" + name + "\"")
                    + "): a lock name is what @Locked(value = ...) or Locks.on(...) says, not blank and without"
                    + " '{' or '}'; pass the varying part as the key");
        }
        return keyPrefix + name.trim();
    }

    private HeldLock take(String redisKey) {
        return HeldLock.take(new Config(config), where, secrets, type, redisKey, lease, waitTime);
    }

    @Override
    public String toString() {
        return "OtherOwner[" + where + ", " + type + ", prefix '" + keyPrefix + "', lease " + lease + "]";
    }
}
