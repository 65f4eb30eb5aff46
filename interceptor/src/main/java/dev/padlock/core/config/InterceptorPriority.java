package dev.padlock.core.config;

import jakarta.interceptor.Interceptor;
import java.util.OptionalInt;

/**
 * Where {@code @Locked} sits among interceptors: {@code padlock.interceptor-priority}, read at deployment (a
 * build-time value on Quarkus). Lower runs outer. The default, {@code PLATFORM_BEFORE + 100}, encloses JTA's
 * {@code @Transactional} ({@code +200}) and SmallRye Fault Tolerance ({@code 4010}).
 */
public final class InterceptorPriority {

    private static final String KEY = ConfigKeys.INTERCEPTOR_PRIORITY;

    public static final int DEFAULT = Interceptor.Priority.PLATFORM_BEFORE + 100;
    /** JTA's {@code @Transactional} interceptor. */
    static final int TRANSACTIONAL = Interceptor.Priority.PLATFORM_BEFORE + 200;

    private static final System.Logger LOG = System.getLogger(InterceptorPriority.class.getName());

    private InterceptorPriority() {}

    /** The configured priority, if one is set and valid; a bad value is a problem naming the key. */
    public static OptionalInt read(ConfigView config, Problems problems) {
        var value = config.get(KEY);
        if (value.isEmpty()) {
            return OptionalInt.empty();
        }
        int priority;
        try {
            priority = Integer.parseInt(value.get().trim());
        } catch (NumberFormatException e) {
            problems.invalidKey(
                    KEY,
                    "'" + value.get() + "' is not a whole number",
                    "Use e.g. " + DEFAULT + " (the default, outside @Transactional at " + TRANSACTIONAL + ")");
            return OptionalInt.empty();
        }
        if (priority >= TRANSACTIONAL) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> KEY + "=" + priority + " puts @Locked inside @Transactional ("
                            + TRANSACTIONAL
                            + "): the transaction begins before the lock is taken. Padlock keeps the lock until the"
                            + " transaction completes (padlock.release=after-transaction, the default), but a lock"
                            + " set to release=on-return, or any lock where Jakarta Transactions is missing, is"
                            + " released before the commit, so another caller can read data this one has not"
                            + " committed yet.");
        }
        return OptionalInt.of(priority);
    }
}
