package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import jakarta.interceptor.InvocationContext;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lock encloses an interceptor at JTA's priority (PLATFORM_BEFORE + 200): the lock is held before such a
 * "transaction" begins and still held when it ends.
 */
@ExtendWith(RedisExtension.class)
class InterceptorOrderTest {

    static RedisServer redis;
    static final List<String> events = new ArrayList<>();

    @InterceptorBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface FakeTransactional {}

    @FakeTransactional
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
    public static class FakeTransactionInterceptor {
        @AroundInvoke
        public Object around(InvocationContext ctx) throws Exception {
            events.add("tx begin, lock held=" + redis.command("EXISTS", "padlock:ordered"));
            try {
                return ctx.proceed();
            } finally {
                events.add("tx end, lock held=" + redis.command("EXISTS", "padlock:ordered"));
            }
        }
    }

    @ApplicationScoped
    public static class Service {
        @Locked("ordered")
        @FakeTransactional
        public void work() {
            events.add("body");
        }
    }

    @Test
    void theLockIsTakenBeforeAndReleasedAfterATransactionalInterceptor(RedisServer server) {
        redis = server;
        events.clear();
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", server.uri()), Service.class, FakeTransactionInterceptor.class)) {
            app.bean(Service.class).work();
        }
        assertThat(events).containsExactly("tx begin, lock held=1", "body", "tx end, lock held=1");
    }
}
