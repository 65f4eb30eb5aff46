package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.EnumSetting;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.config.Problems;
import dev.padlock.core.config.ReleasePolicy;
import dev.padlock.core.config.SettingValues;
import dev.padlock.core.key.BoundTemplate;
import dev.padlock.core.key.KeyBinder;
import dev.padlock.core.shape.MethodShape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Every rule about a {@code @Locked} method, written once for the portable extension, the Quarkus build step and
 * Quarkus start-up. Each setting is resolved by one precedence, per-lock key over annotation member over global
 * default; each rule is a named method; every message is built by {@link Problems}.
 */
public final class LockedMethodValidator {

    /** The outcome: a plan when {@code problems} is empty. */
    public record Result(LockPlan plan, List<String> problems) {
        public boolean isValid() {
            return problems.isEmpty();
        }
    }

    private final GlobalDefaults global;
    private final ConfigView config;

    public LockedMethodValidator(GlobalDefaults global, ConfigView config) {
        this.global = global;
        this.config = config;
    }

    public Result validate(MethodShape method, LockedSpec spec) {
        return new Check(method, spec).run();
    }

    /**
     * A lock taken in code through {@code Locks}: the rules and precedence of a method, with the call's values as its
     * members, and one key template per key value ({@code {0}}, {@code {1}}, ...).
     *
     * @param display how messages name the use, e.g. {@code Locks.on("stock", key)}
     * @param keyCount how many key values the call passes
     * @param result what the code returns: {@code Object} for a value, or {@code CompletionStage}, {@code Uni},
     *     {@code Multi}
     */
    public Result validateCode(String display, LockedSpec spec, int keyCount, Class<?> result) {
        return validate(new CodeShape(display, keyCount, result), spec);
    }

    /** The configuration per-lock keys are read from. */
    public ConfigView config() {
        return config;
    }

    /**
     * One inherited method bound differently in two beans: the integrations key operations by method, so it must
     * have one binding.
     */
    public static void inheritedConflict(Problems problems, String method, String lockName, String otherLockName) {
        problems.invalidMethod(
                method,
                "the method is inherited by beans whose class-level @Locked differ (" + lockName + " vs "
                        + otherLockName + ")",
                "Override the method in the subclass and annotate it there");
    }

    /** The default lock name of a method: {@code <fully.qualified.DeclaringClass>#<method>}. */
    static String defaultLockName(MethodShape method) {
        return method.declaringClass() + "#" + method.name();
    }

    private final class Check {
        private final MethodShape method;
        private final LockedSpec spec;
        private final Problems problems = new Problems();
        private final String name;

        Check(MethodShape method, LockedSpec spec) {
            this.method = method;
            this.spec = spec;
            this.name = spec.value().isBlank()
                    ? defaultLockName(method)
                    : spec.value().trim();
        }

        Result run() {
            if (!method.isInterceptable()) {
                problems.invalidMethod(
                        method.display(),
                        "a private, static or final method is not intercepted, so it would run without the lock",
                        "Make it a non-final instance method that callers reach through the bean");
                return new Result(null, problems.list());
            }
            if (method.isTimerCallback()) {
                problems.invalidMethod(
                        method.display(),
                        "an EJB timer callback (@Schedule or @Timeout) is called through @AroundTimeout interceptors"
                                + " only, so it would run without the lock",
                        "Put @Locked on a method of another bean and call that from the timer method");
                return new Result(null, problems.list());
            }
            SettingValues.hasNoHashTag(Problems.member(method.display(), "value"), name, problems);
            List<BoundTemplate> keys = bindKeys();
            LockSettings settings = new LockSettings(
                    resolveType(),
                    resolveWait(),
                    resolveLease(),
                    resolveOnFailure(),
                    resolveOnLeaseLost(),
                    resolveHandOffLimit(),
                    resolveHandOffBudget(),
                    resolveRelease(),
                    resolveHoldAtLeast(),
                    resolveLockDelay());
            ReturnKind returnKind = ReturnKind.checked(method, problems);
            SettingCombinations combinations = new SettingCombinations(method, name, global, config, problems);
            combinations.checkSkipOnPrimitive(settings.onFailure(), returnKind);
            combinations.checkHoldAtLeast(settings);
            if (!problems.isEmpty()) {
                return new Result(null, problems.list());
            }
            LockPlan plan = new LockPlan(method.display(), name, global.keyPrefix() + name, keys, settings, returnKind);
            return new Result(plan, List.of());
        }

        private List<BoundTemplate> bindKeys() {
            KeyBinder binder = new KeyBinder(method, problems);
            List<BoundTemplate> keys = new ArrayList<>();
            for (String source : spec.key()) {
                binder.bind(source).ifPresent(keys::add);
            }
            return List.copyOf(keys);
        }

        private LockType resolveType() {
            return perLock(
                    ConfigKeys.TYPE,
                    (subject, text) -> EnumSetting.LOCK_TYPE.read(subject, text, spec.type(), problems),
                    spec::type);
        }

        private Duration resolveWait() {
            return perLock(
                    ConfigKeys.LOCK_WAIT_TIME,
                    (subject, text) ->
                            SettingValues.duration(subject, text, GlobalDefaults.DEFAULT_WAIT_TIME, null, problems),
                    () -> member(
                            "waitTime",
                            spec.waitTime(),
                            (subject, text) -> SettingValues.duration(
                                    subject,
                                    text,
                                    GlobalDefaults.DEFAULT_WAIT_TIME,
                                    "Fix the value, or leave it empty to use " + ConfigKeys.WAIT_TIME,
                                    problems),
                            global.waitTime()));
        }

        /** {@code null} is the watchdog, and a per-lock {@code watchdog} wins over the annotation's lease. */
        private Duration resolveLease() {
            BiFunction<String, String, Duration> lease =
                    (subject, text) -> SettingValues.lease(subject, text, problems);
            return perLock(
                    ConfigKeys.LOCK_LEASE_TIME,
                    lease,
                    () -> member("leaseTime", spec.leaseTime(), lease, global.leaseTime()));
        }

        private OnFailure resolveOnFailure() {
            return perLock(
                    ConfigKeys.ON_FAILURE,
                    (subject, text) -> EnumSetting.ON_FAILURE.read(subject, text, spec.onFailure(), problems),
                    spec::onFailure);
        }

        private LeaseLossPolicy resolveOnLeaseLost() {
            return perLock(
                    ConfigKeys.LOCK_ON_LEASE_LOST,
                    (subject, text) ->
                            EnumSetting.LEASE_LOSS_POLICY.read(subject, text, global.onLeaseLost(), problems),
                    global::onLeaseLost);
        }

        private int resolveHandOffLimit() {
            return perLock(
                    ConfigKeys.LOCK_HAND_OFF_LIMIT,
                    (subject, text) -> GlobalDefaults.handOffLimit(subject, text, global.handOffLimit(), problems),
                    global::handOffLimit);
        }

        private ReleasePolicy resolveRelease() {
            return perLock(
                    ConfigKeys.LOCK_RELEASE,
                    (subject, text) -> EnumSetting.RELEASE_POLICY.read(subject, text, global.release(), problems),
                    global::release);
        }

        /** {@code null} when none: empty, or zero. */
        private Duration resolveHoldAtLeast() {
            BiFunction<String, String, Duration> atLeast = (subject, text) -> {
                Duration parsed = SettingValues.duration(subject, text, Duration.ZERO, null, problems);
                return parsed.isZero() ? null : parsed;
            };
            return perLock(
                    ConfigKeys.LOCK_HOLD_AT_LEAST,
                    atLeast,
                    () -> spec.holdAtLeast().isBlank()
                            ? null
                            : atLeast.apply(
                                    SettingCombinations.holdAtLeastSubject(config, name, method), spec.holdAtLeast()));
        }

        /** Per lock only; {@link Duration#ZERO} when not set. */
        private Duration resolveLockDelay() {
            return perLock(
                    ConfigKeys.LOCK_DELAY,
                    (subject, text) -> SettingValues.duration(subject, text, Duration.ZERO, null, problems),
                    () -> Duration.ZERO);
        }

        private Duration resolveHandOffBudget() {
            return perLock(
                    ConfigKeys.LOCK_HAND_OFF_BUDGET,
                    (subject, text) -> SettingValues.duration(subject, text, global.handOffBudget(), null, problems),
                    global::handOffBudget);
        }

        /**
         * The one precedence: {@code padlock.locks."<name>".<property>} when set (parsed with the message subject
         * that names the key), else {@code otherwise}. Not {@code Optional.map}: a parsed value may be
         * {@code null} (the watchdog) and must still win.
         */
        private <T> T perLock(String property, BiFunction<String, String, T> parse, Supplier<T> otherwise) {
            Optional<Map.Entry<String, String>> set = config.perLock(name, property);
            if (set.isEmpty()) {
                return otherwise.get();
            }
            return parse.apply(
                    Problems.lockKey(set.get().getKey(), method.display()),
                    set.get().getValue());
        }

        /** An annotation member when it is not empty (parsed with the subject that names it), else the global value. */
        private <T> T member(String member, String text, BiFunction<String, String, T> parse, T global) {
            return text.isBlank() ? global : parse.apply(Problems.member(method.display(), member), text);
        }
    }
}
