package dev.padlock.testing;

import java.util.Locale;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For test classes that prove a container path (Dev Services' containers, {@link Redis#startContainer()}):
 * {@code @ExtendWith(ContainerRuntime.class)}. They run where a container runtime answers. Where none does they are
 * skipped, saying so, unless containers are required ({@code PADLOCK_TEST_CONTAINERS=required} or
 * {@code -Dpadlock.test.containers=required}, which Padlock's CI sets after starting a runtime): then they fail at once,
 * naming what was looked for. Every other test takes its Redis from a {@code redis-server} process and never depends on
 * whether the machine has a runtime.
 */
public final class ContainerRuntime implements ExecutionCondition, BeforeAllCallback {

    static final String REQUIRED_PROPERTY = "padlock.test.containers";
    static final String REQUIRED_ENV = "PADLOCK_TEST_CONTAINERS";

    /** Whether a container runtime answers Testcontainers here (asked only on a hint of one; once per JVM). */
    public static boolean answers() {
        return RedisSource.containerRuntimeAnswers();
    }

    /** Whether container tests must run (and fail without a runtime) rather than be skipped. */
    public static boolean required() {
        String value = System.getProperty(REQUIRED_PROPERTY, System.getenv(REQUIRED_ENV));
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("required");
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (required() || answers()) {
            return ConditionEvaluationResult.enabled("a container runtime answers, or containers are required");
        }
        return ConditionEvaluationResult.disabled(RedisSource.noContainerRuntime("This test proves a container path")
                + " Set " + REQUIRED_ENV + "=required to make this a failure instead of a skip.");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (required() && !answers()) {
            throw new NoRedisAvailableException(RedisSource.noContainerRuntime(REQUIRED_ENV + "=required")
                    + " Container tests fail rather than skip when containers are required.");
        }
    }
}
