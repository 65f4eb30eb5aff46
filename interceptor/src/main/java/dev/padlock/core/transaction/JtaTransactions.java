package dev.padlock.core.transaction;

import java.util.function.Supplier;

/**
 * The caller's JTA transactions, for the integrations: {@link #ifPresent} checks that Jakarta Transactions is on the
 * class path before anything loads a class that names its types ({@link JtaCallerTransactions}), so an application
 * without it runs as before, its calls released when they end.
 */
public final class JtaTransactions {

    /** The registry's type, for integrations that look it up by name (they need not compile against the API). */
    public static final String REGISTRY_TYPE = "jakarta.transaction.TransactionSynchronizationRegistry";
    /** The JNDI name every Jakarta EE server binds the registry to. */
    public static final String JNDI_NAME = "java:comp/TransactionSynchronizationRegistry";

    private JtaTransactions() {}

    /**
     * The caller's JTA transactions where Jakarta Transactions is on the class path, else {@link
     * CallerTransactions#NONE}.
     *
     * @param lookup finds the container's {@code TransactionSynchronizationRegistry} (a CDI bean, or JNDI at {@link
     *     #JNDI_NAME}), or returns {@code null} when it has none; called once, by {@link
     *     CallerTransactions#resolveNow} or else on the first call that ends
     */
    public static CallerTransactions ifPresent(ClassLoader loader, Supplier<Object> lookup) {
        try {
            Class.forName(REGISTRY_TYPE, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return CallerTransactions.NONE;
        }
        return new JtaCallerTransactions(lookup);
    }
}
