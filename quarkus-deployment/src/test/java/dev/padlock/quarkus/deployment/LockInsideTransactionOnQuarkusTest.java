package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * An application that moved {@code @Locked} inside the transaction ({@code padlock.interceptor-priority=250}, after
 * JTA's 200) on a method that is both {@code @Transactional} and {@code @Locked}: the locked call ends while its own
 * transaction is still active, and with {@code release=after-transaction} (the default) the lock is still held while
 * that transaction commits. The control, a lock configured {@code release=on-return}, is already free when the
 * transaction is about to commit: the next holder could read the rows before they are committed.
 */
class LockInsideTransactionOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Ledger.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("padlock.interceptor-priority", "250")
            .overrideConfigKey("padlock.locks.\"inside-on-return\".release", "on-return");

    @ApplicationScoped
    public static class Ledger {
        @Inject
        TransactionSynchronizationRegistry transactions;

        @Inject
        RedissonClient redisson;

        final List<String> seen = new CopyOnWriteArrayList<>();

        @Transactional
        @Locked("inside")
        public void post() {
            watch("padlock:inside");
        }

        @Transactional
        @Locked("inside-on-return")
        public void postReleasedOnReturn() {
            watch("padlock:inside-on-return");
        }

        private void watch(String key) {
            seen.add("body: lock " + held(key));
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    seen.add("before commit: lock " + held(key));
                }

                @Override
                public void afterCompletion(int status) {}
            });
        }

        private String held(String key) {
            return redisson.getKeys().countExists(key) == 1 ? "held" : "free";
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
    void theLockIsHeldWhileItsOwnTransactionCommits() {
        ledger.seen().clear();
        ledger.post();
        assertThat(ledger.seen()).containsExactly("body: lock held", "before commit: lock held");
        assertThat(redisson.getKeys().countExists("padlock:inside"))
                .as("released after it")
                .isZero();
    }

    @Test
    void releasedOnReturnTheLockIsFreeBeforeTheCommit() {
        ledger.seen().clear();
        ledger.postReleasedOnReturn();
        assertThat(ledger.seen()).containsExactly("body: lock held", "before commit: lock free");
    }
}
