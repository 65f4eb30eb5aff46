package dev.padlock.core.setup;

import dev.padlock.core.client.RedisConnectionReader;
import dev.padlock.core.client.RedisConnectionSettings;
import dev.padlock.core.client.RedissonConfigs;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.EnumSetting;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.config.UnsafeServerPolicy;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockTypeConflicts;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.core.shape.MethodShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one set-up every integration runs: from the {@code @Locked} methods and {@code @Named} lock injection points
 * it collected, and the configuration, to validated plans, named locks and one report of every problem. The
 * portable extension, the Quarkus build step and the Quarkus start-up each only collect their container's view,
 * call {@link #plan}, raise {@link #problems()} their own way, and declare beans; no rule, message, default or
 * precedence lives in integration code.
 *
 * @param <M> how the integration names a method it will register ({@code java.lang.reflect.Method}, or a build-time
 *     descriptor)
 */
public final class PadlockSetup<M> {

    /**
     * One {@code @Locked} method as an integration found it.
     *
     * @param method under what the integration registers the method's operation; {@code null} for a method that is
     *     checked but never registered (a bean the container removed as unused, a method it cannot intercept)
     * @param shape the method as the rules see it
     * @param spec its effective binding (method, class, inherited or stereotype)
     */
    public record LockedMethod<M>(M method, MethodShape shape, LockedSpec spec) {}

    /** A checked method and its plan, to register. */
    public record PlannedMethod<M>(M method, LockPlan plan) {}

    /** Where the connection to Redis comes from, which decides what of {@code padlock.redis.*} is read. */
    public enum Connection {
        /** The application provides its {@code RedissonClient}: the connection keys do not apply. */
        APPLICATION_CLIENT,
        /** Checked, but the client is created elsewhere or later (a build step). */
        CHECK_ONLY,
        /** Padlock creates its own client: the keys are read and a Redisson config file is checked too. */
        PADLOCK_CLIENT
    }

    private final GlobalDefaults defaults;
    private final LockedMethodValidator validator;
    private final RedisConnectionSettings redis;
    private final UnsafeServerPolicy unsafeServer;
    private final List<PlannedMethod<M>> methods;
    private final List<NamedLocks.NamedLock> namedLocks;
    private final Problems problems;

    private PadlockSetup(
            GlobalDefaults defaults,
            LockedMethodValidator validator,
            RedisConnectionSettings redis,
            UnsafeServerPolicy unsafeServer,
            List<PlannedMethod<M>> methods,
            List<NamedLocks.NamedLock> namedLocks,
            Problems problems) {
        this.defaults = defaults;
        this.validator = validator;
        this.redis = redis;
        this.unsafeServer = unsafeServer;
        this.methods = methods;
        this.namedLocks = namedLocks;
        this.problems = problems;
    }

    /**
     * Runs every rule once, collecting all problems rather than stopping at the first.
     *
     * @param loader where a Redisson config file is looked up ({@link Connection#PADLOCK_CLIENT} only)
     */
    public static <M> PadlockSetup<M> plan(
            ConfigView config,
            List<LockedMethod<M>> lockedMethods,
            List<NamedLocks.InjectionPoint> injectionPoints,
            Connection connection,
            ClassLoader loader) {
        Problems problems = new Problems();
        GlobalDefaults defaults = GlobalDefaults.read(config, problems);
        RedisConnectionSettings redis =
                connection == Connection.APPLICATION_CLIENT ? null : RedisConnectionReader.read(config, problems);
        if (connection == Connection.PADLOCK_CLIENT) {
            RedissonConfigs.checkFile(redis, loader, problems);
        }
        // Read whoever provides the client: the server check inspects an application's client too.
        UnsafeServerPolicy unsafeServer = config.get(ConfigKeys.REDIS_UNSAFE_SERVER)
                .map(v -> EnumSetting.UNSAFE_SERVER_POLICY.read(
                        ConfigKeys.REDIS_UNSAFE_SERVER, v, UnsafeServerPolicy.WARN, problems))
                .orElse(UnsafeServerPolicy.WARN);
        LockedMethodValidator validator = new LockedMethodValidator(defaults, config);

        Map<M, PlannedMethod<M>> planned = new LinkedHashMap<>();
        List<LockPlan> plans = new ArrayList<>();
        for (LockedMethod<M> locked : lockedMethods) {
            LockedMethodValidator.Result result = validator.validate(locked.shape(), locked.spec());
            if (!result.isValid()) {
                problems.addAll(result.problems());
                continue;
            }
            plans.add(result.plan());
            if (locked.method() == null) {
                continue;
            }
            PlannedMethod<M> earlier =
                    planned.putIfAbsent(locked.method(), new PlannedMethod<>(locked.method(), result.plan()));
            if (earlier != null && !earlier.plan().equals(result.plan())) {
                // one inherited method seen from two beans: operations are keyed by method, so it needs one binding
                LockedMethodValidator.inheritedConflict(
                        problems,
                        result.plan().method(),
                        earlier.plan().lockName(),
                        result.plan().lockName());
            }
        }
        NamedLocks.Result named = NamedLocks.plan(injectionPoints, defaults, config);
        problems.addAll(named.problems());
        // per-lock types are read from the configuration here, so a type set at run time is checked too
        problems.addAll(LockTypeConflicts.find(plans, named.locks(), config));
        return new PadlockSetup<>(
                defaults, validator, redis, unsafeServer, List.copyOf(planned.values()), named.locks(), problems);
    }

    /** The global defaults ({@code padlock.key-prefix}, wait, lease, on-lease-lost). */
    public GlobalDefaults defaults() {
        return defaults;
    }

    /** The rules, for a method the container reports only when it is first called. */
    public LockedMethodValidator validator() {
        return validator;
    }

    /** How to reach Redis; {@code null} with {@link Connection#APPLICATION_CLIENT}. */
    public RedisConnectionSettings redis() {
        return redis;
    }

    /** What Padlock does when its server check finds Redis set up so that it can void a lock. */
    public UnsafeServerPolicy unsafeServer() {
        return unsafeServer;
    }

    /** Every valid registered method once, in the order first found. */
    public List<PlannedMethod<M>> methods() {
        return methods;
    }

    /** One bean per lock name and kind, sorted by name. */
    public List<NamedLocks.NamedLock> namedLocks() {
        return namedLocks;
    }

    /** Every problem found; empty when the deployment may go on. */
    public Problems problems() {
        return problems;
    }
}
