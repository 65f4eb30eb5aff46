package dev.padlock.contract;

import dev.padlock.Locked;
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
import org.redisson.api.RedissonClient;

/**
 * What {@link InterceptorOrderContract} and {@link ConfiguredPriorityContract} share: a stand-in for JTA's
 * {@code @Transactional}, an interceptor at its priority (PLATFORM_BEFORE + 200) that notes whether the lock of
 * {@link Service#work()} is held as the "transaction" begins and as it ends. (A superclass of both, not a class of its
 * own: Quarkus loads a scenario's class hierarchy and its application's beans together, and the rest apart.)
 */
public abstract class InterceptorOrderScenario extends Scenario {

    /** The interceptor, the locked method and what they note. */
    protected static final ApplicationUnderTest BEANS = ApplicationUnderTest.of(
            FakeTransactional.class, FakeTransactionInterceptor.class, Service.class, Events.class);

    @InterceptorBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface FakeTransactional {}

    /** What the interceptor and the method saw, in order. */
    @ApplicationScoped
    public static class Events {
        private final List<String> seen = new CopyOnWriteArrayList<>();

        public void add(String event) {
            seen.add(event);
        }

        public List<String> seen() {
            return List.copyOf(seen);
        }

        public void clear() {
            seen.clear();
        }
    }

    @FakeTransactional
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
    public static class FakeTransactionInterceptor {
        @Inject
        Events events;

        @Inject
        RedissonClient redisson;

        @AroundInvoke
        public Object around(InvocationContext ctx) throws Exception {
            events.add("tx begin, lock held=" + held());
            try {
                return ctx.proceed();
            } finally {
                events.add("tx end, lock held=" + held());
            }
        }

        private long held() {
            return redisson.getKeys().countExists("padlock:ordered");
        }
    }

    @ApplicationScoped
    public static class Service {
        @Inject
        Events events;

        @Locked("ordered")
        @FakeTransactional
        public void work() {
            events.add("body");
        }
    }

    /** What the interceptor and the method see of the lock during one call of {@code work()}. */
    protected final List<String> eventsOfOneCall() {
        Events events = bean(Events.class);
        events.clear();
        bean(Service.class).work();
        return events.seen();
    }
}
