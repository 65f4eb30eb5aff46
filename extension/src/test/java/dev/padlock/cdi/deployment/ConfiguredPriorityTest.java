package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * padlock.interceptor-priority moves @Locked: at 300 it runs inside an interceptor at JTA's priority 200, so
 * the "transaction" begins before the lock is taken. (The default order is InterceptorOrderTest.)
 */
@ExtendWith(RedisExtension.class)
class ConfiguredPriorityTest {

    @Test
    void aConfiguredPriorityMovesTheLockInsideTheTransaction(RedisServer server) {
        InterceptorOrderTest.redis = server;
        InterceptorOrderTest.events.clear();
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", server.uri(), "padlock.interceptor-priority", "300"),
                InterceptorOrderTest.Service.class,
                InterceptorOrderTest.FakeTransactionInterceptor.class)) {
            app.bean(InterceptorOrderTest.Service.class).work();
        }
        assertThat(InterceptorOrderTest.events).containsExactly("tx begin, lock held=0", "body", "tx end, lock held=0");
    }

    @Test
    void aBadPriorityFailsTheDeployment() {
        assertThat(Deployment.failing(
                                Map.of("padlock.interceptor-priority", "early"), InterceptorOrderTest.Service.class)
                        .toString())
                .contains("Invalid padlock.interceptor-priority: 'early' is not a whole number");
    }
}
