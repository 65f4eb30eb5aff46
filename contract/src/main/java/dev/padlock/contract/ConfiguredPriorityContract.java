package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code padlock.interceptor-priority} moves {@code @Locked}: at 300 it runs inside an interceptor at JTA's priority
 * 200, so the "transaction" begins before the lock is taken. (The default order is {@link InterceptorOrderContract}.)
 * A priority that is not a number refuses the application, naming the key and a value to use.
 */
public abstract class ConfiguredPriorityContract extends InterceptorOrderScenario {

    public static final ApplicationUnderTest APPLICATION = BEANS.with("padlock.interceptor-priority", "300");

    public static final Refusal BAD_PRIORITY = Refusal.of(
            ApplicationUnderTest.of(Service.class, Events.class).with("padlock.interceptor-priority", "early"),
            0,
            "Invalid padlock.interceptor-priority: 'early' is not a whole number. Use e.g. 100 (the default, outside"
                    + " @Transactional at 200).");

    @Test
    void aConfiguredPriorityMovesTheLockInsideTheTransaction() {
        assertThat(eventsOfOneCall()).containsExactly("tx begin, lock held=0", "body", "tx end, lock held=0");
    }
}
