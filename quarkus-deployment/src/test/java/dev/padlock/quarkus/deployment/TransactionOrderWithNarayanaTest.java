package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * With Quarkus's JTA (Narayana), the lock encloses the transaction: it is held while the transaction commits and
 * after it has completed, so the next holder sees committed data. Were the lock inside the transaction, it would
 * be released before the commit and the completion callbacks would find it gone.
 */
class TransactionOrderWithNarayanaTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Ledger.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri());

    @ApplicationScoped
    public static class Ledger {
        @Inject
        TransactionSynchronizationRegistry transactions;

        @Inject
        RedissonClient redisson;

        final List<String> seen = new CopyOnWriteArrayList<>();

        @Transactional
        @Locked("q-tx")
        public void post() {
            seen.add("body: transaction " + status(transactions.getTransactionStatus()) + ", lock " + held());
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    seen.add("before commit: lock " + held());
                }

                @Override
                public void afterCompletion(int status) {
                    seen.add("after " + status(status) + ": lock " + held());
                }
            });
        }

        private String held() {
            return redisson.getKeys().countExists("padlock:q-tx") == 1 ? "held" : "free";
        }

        private static String status(int status) {
            return status == Status.STATUS_ACTIVE
                    ? "active"
                    : status == Status.STATUS_COMMITTED ? "commit" : "status " + status;
        }

        public List<String> seen() {
            return seen;
        }
    }

    @Inject
    Ledger ledger;

    @Inject
    RedissonClient redisson;

    @Test
    void theLockIsHeldUntilTheTransactionHasCompleted() {
        ledger.post();
        assertThat(ledger.seen())
                .containsExactly(
                        "body: transaction active, lock held", "before commit: lock held", "after commit: lock held");
        assertThat(redisson.getKeys().countExists("padlock:q-tx"))
                .as("released after the transaction")
                .isZero();
    }
}
