package dev.padlock.core.operation;

import dev.padlock.core.plan.LockPlan;
import io.smallrye.mutiny.Multi;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.Flow;

/**
 * A method returning a Reactive Streams {@code org.reactivestreams.Publisher}: as a {@code Multi} ({@link
 * MultiOperation}), adapted both ways by {@link ReactiveStreams}, so that only applications returning that type need
 * its adapters.
 */
final class PublisherOperation extends MultiOperation {

    PublisherOperation(LockPlan plan, Class<?>[] parameterTypes, EngineServices services) {
        super(plan, parameterTypes, services);
    }

    @Override
    public Object invoke(InvocationContext ctx) {
        return ReactiveStreams.publisher(locked(ctx, ctx.getParameters()));
    }

    /** The method's publisher as a {@code Multi}; one that is a {@code Flow.Publisher} too needs no adapter. */
    @Override
    Multi<Object> body(Object result) {
        return result instanceof Flow.Publisher<?> ? super.body(result) : ReactiveStreams.multi(result);
    }
}
