package dev.padlock.core.engine;

import dev.padlock.Locked;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs {@code @Locked} methods under their locks. At {@code PLATFORM_BEFORE + 100} it encloses
 * {@code @Transactional} ({@code +200}): the lock is taken before the transaction begins and released after
 * it commits or rolls back.
 */
@Locked
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class LockedInterceptor {

    private final PadlockEngine engine;

    @Inject
    public LockedInterceptor(PadlockEngine engine) {
        this.engine = engine;
    }

    @AroundInvoke
    public Object lockAndProceed(InvocationContext ctx) throws Exception {
        return engine.operation(ctx).invoke(ctx);
    }
}
