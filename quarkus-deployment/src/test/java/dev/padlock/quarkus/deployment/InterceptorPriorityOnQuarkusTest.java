package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import jakarta.interceptor.InvocationContext;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * On Quarkus too, @Locked encloses an interceptor at JTA's priority (200) by default, and
 * padlock.interceptor-priority=300 (a build-time value there) moves it inside.
 */
class InterceptorPriorityOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(
                    FakeTransactional.class, FakeTransactionInterceptor.class, Service.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("padlock.interceptor-priority", "300");

    static final List<String> events = new CopyOnWriteArrayList<>();

    @InterceptorBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface FakeTransactional {}

    @FakeTransactional
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
    public static class FakeTransactionInterceptor {
        @Inject
        RedissonClient redisson;

        @AroundInvoke
        public Object around(InvocationContext ctx) throws Exception {
            events.add("tx begin, lock held="
                    + redisson.getLock("padlock:q-ordered").isLocked());
            try {
                return ctx.proceed();
            } finally {
                events.add("tx end, lock held="
                        + redisson.getLock("padlock:q-ordered").isLocked());
            }
        }
    }

    @ApplicationScoped
    public static class Service {
        @Locked("q-ordered")
        @FakeTransactional
        public void work() {
            events.add("body");
        }
    }

    @Inject
    Service service;

    @Test
    void theConfiguredPriorityPutsTheLockInsideTheTransaction() {
        events.clear();
        service.work();
        assertThat(events).containsExactly("tx begin, lock held=false", "body", "tx end, lock held=false");
    }
}
