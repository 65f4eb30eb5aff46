package dev.padlock.core.operation;

import dev.padlock.core.plan.LockPlan;

/** Builds the operation the interceptor (or {@code Locks}) runs for a validated plan. */
public final class Operations {

    private Operations() {}

    /**
     * The operation for a validated plan, chosen by how the method returns its result. The engine shares one renewal
     * and one loss reporter among all operations of an application ({@code services}).
     */
    public static LockOperation of(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        return switch (plan.returnKind().end()) {
            case ON_RETURN -> new BlockingOperation(plan, parameterTypes, services);
            case WITH_STAGE -> new StageOperation(plan, parameterTypes, services);
            // Loaded only here, so Mutiny is needed only by applications that return its types.
            case WITH_STREAM -> new ReactiveOperation(plan, parameterTypes, services);
        };
    }
}
