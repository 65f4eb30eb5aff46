package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.redis.LockKind;
import dev.padlock.core.shape.MethodShape;
import java.time.Duration;

/**
 * The rules across a method's resolved settings, each a named method, checked once every setting is resolved by
 * {@link LockedMethodValidator}: a value that is valid alone but not with another (a hold-at-least longer than the
 * lease, SKIP with a primitive result). Messages name where the offending value came from.
 */
final class SettingCombinations {

    private final MethodShape method;
    private final String name;
    private final GlobalDefaults global;
    private final ConfigView config;
    private final Problems problems;

    SettingCombinations(MethodShape method, String name, GlobalDefaults global, ConfigView config, Problems problems) {
        this.method = method;
        this.name = name;
        this.global = global;
        this.config = config;
        this.problems = problems;
    }

    /** Where the hold-at-least came from, for messages: the per-lock key when set, else the member. */
    static String holdAtLeastSubject(ConfigView config, String name, MethodShape method) {
        return config.perLock(name, ConfigKeys.LOCK_HOLD_AT_LEAST)
                .map(set -> Problems.lockKey(set.getKey(), method.display()))
                .orElse(Problems.member(method.display(), "holdAtLeast"));
    }

    /**
     * A hold-at-least needs a lock whose hold can outlive the call ({@link LockKind#keepsHolds}), and must fit in
     * the lease: past it, Redis frees the key anyway (and a watchdog-mode key lapses that long after its JVM
     * stopped renewing it).
     */
    void checkHoldAtLeast(LockSettings settings) {
        Duration atLeast = settings.holdAtLeast();
        if (atLeast == null) {
            return;
        }
        if (!LockKind.of(settings.type()).keepsHolds()) {
            problems.invalid(
                    holdAtLeastSubject(config, name, method),
                    "a " + settings.type() + " lock cannot be held past its call: "
                            + (settings.type() == LockType.FAIR
                                    ? "the callers queued for it in Redis wait for an unlock, not for its expiry"
                                    : "its Redis hash is shared between readers and writers"),
                    "Use type REENTRANT (the default), SPIN or FENCED, or remove the hold-at-least");
            return;
        }
        if (settings.usesWatchdog()) {
            Duration watchdog = global.watchdogTimeout();
            if (atLeast.compareTo(watchdog) > 0) {
                problems.invalid(
                        holdAtLeastSubject(config, name, method),
                        DurationText.format(atLeast) + " is longer than the lease of a watchdog-mode lock, "
                                + ConfigKeys.WATCHDOG_TIMEOUT + " (" + DurationText.format(watchdog)
                                + "), after which Redis frees a key its JVM no longer renews",
                        "Use " + DurationText.format(watchdog) + " or less, raise " + ConfigKeys.WATCHDOG_TIMEOUT
                                + ", or set a leaseTime at least as long");
            }
        } else if (atLeast.compareTo(settings.leaseTime()) > 0) {
            problems.invalid(
                    holdAtLeastSubject(config, name, method),
                    DurationText.format(atLeast) + " is longer than the lease ("
                            + DurationText.format(settings.leaseTime())
                            + "), after which Redis frees the key anyway",
                    "Use " + DurationText.format(settings.leaseTime()) + " or less, or a leaseTime at least as long");
        }
    }

    void checkSkipOnPrimitive(OnFailure onFailure, ReturnKind returnKind) {
        if (onFailure != OnFailure.SKIP || returnKind != ReturnKind.PRIMITIVE) {
            return;
        }
        String returned = method.returnType().name();
        String subject = config.perLock(name, ConfigKeys.ON_FAILURE)
                .map(set -> Problems.lockKey(set.getKey(), method.display()))
                .orElse(Problems.member(method.display(), "onFailure"));
        problems.invalid(
                subject,
                "SKIP has nothing to return for the primitive return type " + returned,
                "Return a wrapper (e.g. " + boxed(returned) + ", null when skipped), an Optional, or use THROW");
    }

    private static String boxed(String primitive) {
        return switch (primitive) {
            case "int" -> "Integer";
            case "char" -> "Character";
            default -> Character.toUpperCase(primitive.charAt(0)) + primitive.substring(1);
        };
    }
}
