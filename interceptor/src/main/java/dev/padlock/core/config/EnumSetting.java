package dev.padlock.core.config;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a setting names an enum constant, the one rule for every enum Padlock reads: any case, {@code -} for
 * {@code _} ({@code on-failure=skip}, {@code type=Fair}). A value that names no constant is one problem, worded
 * {@code '<value>' is not <noun>. Use one of <choices>.}
 */
public final class EnumSetting<E extends Enum<E>> {

    public static final EnumSetting<LockType> LOCK_TYPE = new EnumSetting<>(LockType.class, "a LockType", "");
    public static final EnumSetting<OnFailure> ON_FAILURE = new EnumSetting<>(OnFailure.class, "an OnFailure", "");
    public static final EnumSetting<LeaseLossPolicy> LEASE_LOSS_POLICY = new EnumSetting<>(
            LeaseLossPolicy.class,
            "a policy for a lost lock",
            " (warn reports a lost lock: event, WARN log, metric; throw also throws LockLostException after the"
                    + " method; interrupt also stops the method's work at the loss: its thread interrupted, its"
                    + " stage, Uni or stream cancelled)");

    public static final EnumSetting<ReleasePolicy> RELEASE_POLICY = new EnumSetting<>(
            ReleasePolicy.class,
            "a release policy",
            " (after-transaction keeps the lock of a call that ends inside its caller's JTA transaction until that"
                    + " transaction completes; on-return releases it when the method returns)");

    public static final EnumSetting<UnsafeServerPolicy> UNSAFE_SERVER_POLICY = new EnumSetting<>(
            UnsafeServerPolicy.class,
            "a policy for a server that can void locks",
            " (warn logs what the server check found; not-ready also keeps readiness down while it holds; fail also"
                    + " stops the start-up when the check finds it then)");

    private final Class<E> type;
    private final String noun;
    private final String hint;

    /**
     * @param noun how the reason names the kind of value, with its article ({@code a LockType})
     * @param hint appended to the list of choices, e.g. where to go for what the enum does not offer; may be empty
     */
    public EnumSetting(Class<E> type, String noun, String hint) {
        this.type = type;
        this.noun = noun;
        this.hint = hint;
    }

    /** The constant {@code text} names, if any. */
    public Optional<E> parse(String text) {
        String name = text.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        return Arrays.stream(type.getEnumConstants())
                .filter(c -> c.name().equals(name))
                .findFirst();
    }

    /** The constant {@code text} names; else a problem about {@code subject} (see {@link Problems}), and {@code fallback}. */
    public E read(String subject, String text, E fallback, Problems problems) {
        Optional<E> value = parse(text);
        if (value.isEmpty()) {
            problems.invalid(
                    subject,
                    "'" + text + "' is not " + noun,
                    "Use one of " + choices(Arrays.asList(type.getEnumConstants())) + hint);
        }
        return value.orElse(fallback);
    }

    /** {@code reentrant, fair, spin}: constants as a setting spells them, for messages. */
    public static String choices(Collection<? extends Enum<?>> constants) {
        return constants.stream().map(EnumSetting::spelled).collect(Collectors.joining(", "));
    }

    /** {@code SINGLE} as {@code single}, {@code ON_FAILURE} as {@code on-failure}. */
    public static String spelled(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
