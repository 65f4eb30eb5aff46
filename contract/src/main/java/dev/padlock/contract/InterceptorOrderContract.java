package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The lock encloses an interceptor at JTA's priority (PLATFORM_BEFORE + 200; see {@link InterceptorOrderScenario}):
 * the lock is held before such a "transaction" begins and still held when it ends. {@link ConfiguredPriorityContract}
 * moves it inside.
 */
public abstract class InterceptorOrderContract extends InterceptorOrderScenario {

    public static final ApplicationUnderTest APPLICATION = BEANS;

    @Test
    void theLockIsTakenBeforeAndReleasedAfterATransactionalInterceptor() {
        assertThat(eventsOfOneCall()).containsExactly("tx begin, lock held=1", "body", "tx end, lock held=1");
    }
}
