package dev.padlock.core.operation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.engine.EngineWiring;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.transaction.CallerTransactions;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A transaction manager that fails (an Error too) while a call asks whether to wait for its caller's transaction:
 * the call is released when it returns, as without a transaction, instead of keeping its lock (renewed for as long
 * as the application runs) for a transaction that will never tell it anything. Before, the Error left the key held.
 */
@ExtendWith(RedisExtension.class)
class TransactionFailureReleasesTest {

    /** Says no transaction before the call acquires, then fails when the call ends. */
    private static final class FailingAtTheEnd implements CallerTransactions {
        final AtomicInteger asked = new AtomicInteger();

        @Override
        public boolean isActive() {
            if (asked.incrementAndGet() > 1) {
                throw new AssertionError("the transaction manager broke");
            }
            return false;
        }

        @Override
        public boolean awaitCompletion(Completion completion) {
            throw new AssertionError("not reached");
        }

        @Override
        public List<Completion> awaiting() {
            return List.of();
        }

        @Override
        public Object current() {
            return null;
        }
    }

    @Test
    void anErrorFromTheTransactionManagerReleasesTheLockAtReturn(RedisServer redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient client = Redisson.create(config);
        ConfigView view = ConfigView.of(Map.of());
        LockedMethodValidator validator = new LockedMethodValidator(GlobalDefaults.read(view, new Problems()), view);
        FailingAtTheEnd transactions = new FailingAtTheEnd();
        PadlockEngine engine = new PadlockEngine(
                validator, EngineWiring.of(() -> client, loss -> {}).withTransactions(transactions));
        try {
            String result = engine.locks().on("tx-failure", "k").get(() -> "ran");

            assertThat(result).isEqualTo("ran");
            assertThat(transactions.asked).as("asked before and after the body").hasValue(2);
            assertThat(client.getKeys().countExists("padlock:tx-failure:k"))
                    .as("released at return")
                    .isZero();
        } finally {
            engine.close();
            client.shutdown();
        }
    }
}
