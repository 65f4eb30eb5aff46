package dev.padlock.cdi;

import dev.padlock.contract.ApplicationUnderTest;
import dev.padlock.contract.Refusal;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a contract scenario on Weld: a Redis for the test class, and for each of the scenario's tests a fresh
 * deployment of its application, shut down after the test. A test the runner adds itself gets the application only
 * if it asks {@link #bean} for something, so it may deploy another one instead. Register it as a static field:
 * {@code @RegisterExtension static final OnWeld app = OnWeld.of(SomeContract.APPLICATION);}.
 */
public final class OnWeld implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private final ApplicationUnderTest application;
    private RedisServer redis;
    private Deployment deployment;

    private OnWeld(ApplicationUnderTest application) {
        this.application = application;
    }

    public static OnWeld of(ApplicationUnderTest application) {
        return new OnWeld(application);
    }

    /** The bean of {@code type} in this test's application, deployed now if it is not yet. */
    public <T> T bean(Class<T> type, Annotation... qualifiers) {
        return deployment().bean(type, qualifiers);
    }

    private synchronized Deployment deployment() {
        if (deployment == null) {
            Map<String, String> config = new HashMap<>(application.config());
            config.put(ApplicationUnderTest.REDIS_ADDRESS, redis.uri());
            config.putIfAbsent("padlock.redis.address", redis.uri());
            deployment = Deployment.start(config, application.beanClasses());
        }
        return deployment;
    }

    /** Deploys the application {@code refusal} describes, which must fail, and checks what the failure says. */
    public static void checkRefused(Refusal refusal) {
        refusal.check(Deployment.failing(
                refusal.application().config(), refusal.application().beanClasses()));
    }

    /** The Redis the application locks on. */
    public RedisServer redis() {
        return redis;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = Redis.startServer();
    }

    /** Deploys before a test the scenario declares (the runner's own tests are declared by the runner's class). */
    @Override
    public void beforeEach(ExtensionContext context) {
        if (context.getRequiredTestMethod().getDeclaringClass() != context.getRequiredTestClass()) {
            deployment();
        }
    }

    @Override
    public synchronized void afterEach(ExtensionContext context) {
        if (deployment != null) {
            try {
                deployment.close();
            } finally {
                deployment = null;
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        afterEach(context);
        if (redis != null) {
            redis.close();
        }
    }
}
