package dev.padlock.core.operation;

import dev.padlock.core.plan.LockPlan;

/** Builds the operation the interceptor (or {@code Locks}) runs for a validated plan. */
public final class Operations {

    private Operations() {}

    /**
     * The operation for a validated plan, one class per way a method returns its result: when it returns, when the
     * stage it returns completes, when the Mutiny type or publisher it returns ends. The engine shares one renewal and
     * one loss reporter among all operations of an application ({@code services}).
     */
    public static LockOperation of(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        return switch (plan.returnKind()) {
            case BLOCKING, OPTIONAL, OPTIONAL_INT, OPTIONAL_LONG, OPTIONAL_DOUBLE, PRIMITIVE ->
                new BlockingOperation(plan, parameterTypes, services);
            case COMPLETION_STAGE -> new StageOperation(plan, parameterTypes, services);
            // Loaded only here, so Mutiny is needed only by applications that return its types.
            case UNI -> new UniOperation(plan, parameterTypes, services);
            case MULTI, FLOW_PUBLISHER -> new MultiOperation(plan, parameterTypes, services);
            case REACTIVE_STREAMS_PUBLISHER -> new PublisherOperation(plan, parameterTypes, services);
        };
    }
}
