package dev.padlock.cdi.transactions;

import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.file.Path;

/**
 * Narayana, the transaction manager Quarkus and WildFly ship, in this JVM: a Weld application that adds {@link
 * Registry} to its beans gets its {@link TransactionSynchronizationRegistry} as a bean, the integration point Padlock
 * looks for. A transaction that outlives its timeout is rolled back by Narayana's reaper, on the reaper's own thread,
 * while the thread that began it stays associated with it. Its object store is kept under {@code target/}.
 */
public final class Narayana {

    static {
        String store = Path.of("target", "narayana").toAbsolutePath().toString();
        BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class).setObjectStoreDir(store);
        BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "communicationStore")
                .setObjectStoreDir(store);
        BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "stateStore")
                .setObjectStoreDir(store);
    }

    private Narayana() {}

    public static TransactionManager transactionManager() {
        return com.arjuna.ats.jta.TransactionManager.transactionManager();
    }

    /** The registry as a bean, for the applications that have a transaction manager. */
    @ApplicationScoped
    public static class Registry {
        @Produces
        @ApplicationScoped
        TransactionSynchronizationRegistry registry() {
            transactionManager(); // configured first
            return new TransactionSynchronizationRegistryImple();
        }
    }

    /** The status of {@code transaction}, as {@link Status} numbers it. */
    public static int status(Transaction transaction) {
        try {
            return transaction.getStatus();
        } catch (SystemException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Ends what the calling thread's transaction left: rolled back if it still runs, else just dissociated. */
    public static void endOnThisThread() {
        TransactionManager tm = transactionManager();
        try {
            if (tm.getTransaction() == null) {
                return;
            }
            try {
                tm.rollback();
            } catch (IllegalStateException | SystemException e) {
                tm.suspend(); // completed already (rolled back by the reaper): only the association is left
            }
        } catch (SystemException e) {
            throw new IllegalStateException(e);
        }
    }
}
