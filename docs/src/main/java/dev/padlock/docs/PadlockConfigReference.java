package dev.padlock.docs;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import java.util.Map;
import java.util.Optional;

/**
 * The documentation of every {@code padlock.*} key, the same on every runtime: the Quarkus extension processor turns
 * this Javadoc into a configuration model, and the Quarkus config-doc plugin renders it into
 * {@code docs/reference/configuration.md}. Padlock itself reads its keys through MicroProfile Config ({@code ConfigKeys},
 * {@code ConfigView}), on Weld, Payara and Quarkus alike, with one parser and one set of messages.
 *
 * <p>Why this is not a config root of the Quarkus extension, where the Dev UI would show these descriptions: a
 * run-time root with prefix {@code padlock} makes Quarkus validate the whole namespace. Keys Padlock accepts (the
 * unquoted {@code padlock.locks.a.b.type} of lock {@code a.b}) and keys it ignores (the test harness's
 * {@code padlock.test.redis}) then stop the application with {@code SRCFG00050 ... does not map to any root}, and,
 * with that check switched off, still earn an "Unrecognized configuration key ... will be ignored" warning
 * ({@code ConfigMappingSideEffectsTest} in quarkus-deployment saw both). So this interface lives in a module no
 * application depends on. Members are {@code String}s without {@code @WithDefault}, as Padlock's own parser takes
 * the values; defaults are documented with {@code @ConfigDocDefault}.
 */
@ConfigMapping(prefix = "padlock")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface PadlockConfigReference {

    /** How to reach Redis (or Valkey). */
    Redis redis();

    /**
     * Prepended to every lock name to form its Redis key ({@code <key-prefix><name>[:<rendered key>]}). May not
     * contain <code>{</code> or <code>}</code>, which would act as a Redis Cluster hash tag.
     */
    @ConfigDocDefault("padlock:")
    Optional<String> keyPrefix();

    /**
     * How long a caller waits for a lock when neither the lock's own keys nor its annotation say: {@code 0} (try
     * once), {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d}, or ISO-8601 such as {@code PT5S}; at
     * most {@code 3650d}.
     */
    @ConfigDocDefault("5s")
    Optional<String> waitTime();

    /**
     * A fixed lease for every lock whose annotation and per-lock keys set none, same syntax as {@code wait-time},
     * from {@code 1ms} to {@code 3650d}; or {@code watchdog}: the lock is renewed while its method runs.
     */
    @ConfigDocDefault("watchdog")
    Optional<String> leaseTime();

    /**
     * The lease of locks without a fixed lease, {@code 1s} to {@code 3650d}: Padlock renews it every third of this
     * while the method runs, and it lapses this long after a crash. When set, it wins over a Redisson config file's
     * {@code lockWatchdogTimeout}. Does not apply when the application provides its own {@code RedissonClient}.
     */
    @ConfigDocDefault("the config file's lockWatchdogTimeout when there is a file, else 30s")
    Optional<String> watchdogTimeout();

    /**
     * What a call does when its lock was lost while its method ran: {@code warn} (a {@code LockLost} event, one
     * WARN line and a counter), {@code throw} (the same, then {@code LockLostException} after the method, or
     * suppressed into the method's own exception) or {@code interrupt} (the same, but the work is stopped at the
     * loss: the thread running the method is interrupted while it runs, a returned {@code CompletionStage}, {@code
     * Uni}, {@code Multi} or {@code Publisher} is cancelled, and the caller gets {@code LockLostException} with the
     * method's own failure suppressed into it; the interrupt is cleared when the method returns). I/O an interrupt
     * does not reach, such as a JDBC statement, is stopped through {@code LockContext.onLoss}.
     */
    @ConfigDocDefault("warn")
    Optional<String> onLeaseLost();

    /**
     * When a call that ends inside its caller's JTA transaction (a {@code @Transactional} caller, or the interceptor
     * placed inside the transaction) gives its lock up: {@code after-transaction}, once that transaction has committed
     * or rolled back, so the next holder reads what it committed; or {@code on-return}, when the method returns. The
     * lease is renewed (or runs out, reported as a lost lock) while the transaction completes; with {@code
     * on-lease-lost=throw} a lock lost meanwhile rolls the transaction back. Calls with no transaction on their
     * thread, and methods returning {@code CompletionStage}, {@code Uni} or {@code Multi}, are released when their
     * work ends either way. Has no effect without Jakarta Transactions.
     */
    @ConfigDocDefault("after-transaction")
    Optional<String> release();

    /**
     * How many times in a row a key held in Redis passes straight to the next caller of the same application waiting
     * for it, staying held in Redis, before it is unlocked there so other applications get their turn (see
     * docs/reference/hot-keys.md); {@code 0} turns hand-off off.
     */
    @ConfigDocDefault("32")
    Optional<String> handOffLimit();

    /**
     * How long such a chain of hand-offs may keep a key from when it was taken from Redis, same syntax as
     * {@code wait-time}; {@code 0} turns hand-off off. A chain never runs past the lease deadline either.
     */
    @ConfigDocDefault("100ms")
    Optional<String> handOffBudget();

    /**
     * Per-lock settings, keyed by lock name (the {@code @Locked} value, or a named lock bean's name). They beat the
     * annotation, which beats the global keys. Quote a name that contains dots:
     * {@code padlock.locks."com.acme.Inventory#reserve".type}.
     */
    @ConfigDocMapKey("name")
    Map<String, Lock> locks();

    /** Connection settings. */
    interface Redis {

        /**
         * A single server: {@code redis://host:port}, {@code rediss://} for TLS, {@code valkey://} works too. Host
         * names with {@code _}, such as Docker Compose services, are fine. On Quarkus, when no {@code padlock.redis.*}
         * key is set, {@code quarkus.redis.hosts} or a Dev Service gives the address.
         */
        @ConfigDocDefault("redis://127.0.0.1:6379")
        Optional<String> address();

        /** The topology: {@code single}, {@code cluster}, {@code sentinel} or {@code replicated}. */
        @ConfigDocDefault("single")
        Optional<String> mode();

        /** Comma-separated addresses for cluster, replicated or sentinel mode (the sentinels). */
        Optional<String> nodes();

        /** Sentinel settings. */
        Sentinel sentinel();

        /** The user name, with Redis ACLs. */
        Optional<String> username();

        /** The password. It never appears in a log line, an exception message or the readiness check's data. */
        Optional<String> password();

        /** The database number; not in cluster mode. */
        @ConfigDocDefault("0")
        Optional<String> database();

        /**
         * A Redisson YAML file (a path, or a class-path resource) for anything the keys above do not cover; it
         * excludes them. A YAML error is reported by line and column only, never with the file's content, which may
         * hold the password.
         */
        Optional<String> configFile();

        /**
         * Whether a lock counts as taken or renewed only once a replica confirmed it, where the topology has replicas
         * (sentinel, replicated, cluster). Each acquisition and each of Padlock's renewals and lease extensions is
         * followed by {@code WAIT} in the same round trip, for every replica connected to the master, up to
         * {@code replica-timeout}; an acquisition that no replica confirmed fails (the method does not run), and a
         * renewal that no replica confirmed does not move the holder's deadline. {@code false}: only the master's
         * answer counts (Padlock's renewals send no {@code WAIT}; Redisson still waits after its lock scripts, but
         * fails none). Single mode sends no {@code WAIT}. Sets Redisson's {@code checkLockSyncedSlaves} and wins over
         * a config file's value; an application's own {@code RedissonClient} keeps its own. What it guarantees per
         * topology: {@code docs/reference/failover.md}.
         */
        @ConfigDocDefault("true")
        Optional<String> replicaConfirmation();

        /**
         * How long an acquisition or renewal waits for replicas to confirm it, same syntax as
         * {@code padlock.wait-time}. Sets Redisson's {@code slavesSyncTimeout} and wins over a config file's value;
         * an application's own {@code RedissonClient} keeps its own.
         */
        @ConfigDocDefault("1s")
        Optional<String> replicaTimeout();

        /**
         * What Padlock does when its server check finds Redis set up so that it can void a lock: a {@code maxmemory}
         * with a {@code maxmemory-policy} other than {@code noeviction} (lock keys may be evicted), or a master with
         * replicas and no {@code min-replicas-to-write} while {@code replica-confirmation} is on. The check runs when
         * the client connects (Padlock's own or the application's), and again after every reconnect, and asks every master with {@code INFO} (and
         * {@code CONFIG GET save}). {@code warn}: a WARN line naming the setting, its value, the node and the fix;
         * readiness shows the finding and stays up. {@code not-ready}: also readiness down until the check has run and
         * while it finds the server unsafe. {@code fail}: also the start-up waits (at most 15 s) for the connection
         * and the check, and stops when it finds the server unsafe; a server not reached then, or found unsafe later,
         * keeps readiness down as with {@code not-ready}. A server without persistence (INFO) and what could not be
         * checked (WARN, with how to allow it) are only said, whatever this is. The default is {@code warn} because the
         * cloud services' own default ({@code volatile-lru}) would otherwise take a running application out of service
         * on upgrade for a server that may never fill up. What each finding means:
         * {@code docs/reference/troubleshooting.md}.
         */
        @ConfigDocDefault("warn")
        Optional<String> unsafeServer();
    }

    /** Sentinel settings. */
    interface Sentinel {

        /** The name of the master the sentinels monitor (sentinel mode). */
        Optional<String> masterName();
    }

    /** The settings of one lock. */
    interface Lock {

        /**
         * The lock type: {@code reentrant}, {@code fair}, {@code read}, {@code write}, {@code spin} or
         * {@code fenced}; for named {@code RLock} beans {@code reentrant}, {@code fair}, {@code spin} or
         * {@code fenced}. Every method and bean using one name must end up with one type.
         */
        @ConfigDocDefault("the annotation's")
        Optional<String> type();

        /** How long a caller waits for this lock, as {@code padlock.wait-time}. */
        @ConfigDocDefault("the annotation's")
        Optional<String> waitTime();

        /** This lock's fixed lease, or {@code watchdog}, as {@code padlock.lease-time}. */
        @ConfigDocDefault("the annotation's")
        Optional<String> leaseTime();

        /**
         * {@code throw} ({@code LockNotAcquiredException}) or {@code skip} (an empty result; refused for methods
         * returning a primitive) when the lock is not acquired.
         */
        @ConfigDocDefault("the annotation's")
        Optional<String> onFailure();

        /** {@code warn}, {@code throw} or {@code interrupt}, as {@code padlock.on-lease-lost}, for this lock. */
        @ConfigDocDefault("padlock.on-lease-lost")
        Optional<String> onLeaseLost();

        /** This lock's {@code padlock.hand-off-limit}. */
        @ConfigDocDefault("padlock.hand-off-limit")
        Optional<String> handOffLimit();

        /** This lock's {@code padlock.hand-off-budget}. */
        @ConfigDocDefault("padlock.hand-off-budget")
        Optional<String> handOffBudget();

        /** {@code after-transaction} or {@code on-return}, as {@code padlock.release}, for this lock. */
        @ConfigDocDefault("padlock.release")
        Optional<String> release();

        /**
         * The least time this lock stays held from its acquisition (run-once jobs): a call that ends sooner leaves its
         * key to expire then, instead of releasing it. At most the lease (the fixed one, or
         * {@code padlock.watchdog-timeout}); {@code reentrant}, {@code spin} and {@code fenced} locks only; such keys
         * are never handed on. {@code 0} turns the annotation's off.
         */
        @ConfigDocDefault("the annotation's, else none")
        Optional<String> holdAtLeast();

        /**
         * How much longer than its lease this lock's key lives in Redis: each acquisition and renewal sets the key's
         * expiry to the lease plus this, while the holder's own deadline (and its {@code LockLost}) stays at the lease.
         * A holder that vanished without releasing (a crashed or killed JVM, a long pause, a network cut) then blocks
         * the key this much longer, so its last writes can drain before the next holder starts; a holder that
         * releases frees the key at once, and a hold-at-least ends at its time. {@code @Locked} methods and code run
         * through {@code Locks}; not named lock beans.
         */
        @ConfigDocDefault("0 (none)")
        Optional<String> lockDelay();
    }
}
