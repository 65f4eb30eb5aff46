package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.CallerContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.Executor;

/**
 * Vert.x's view of a caller: an event-loop thread must not block, and a reactive call continues on the context
 * it was made on. Used only when Vert.x is on the class path.
 */
final class VertxCallerContext implements CallerContext {

    static CallerContext ifPresent(ClassLoader loader) {
        try {
            Class.forName("io.vertx.core.Context", false, loader);
            return new VertxCallerContext();
        } catch (ClassNotFoundException | LinkageError e) {
            return CallerContext.NONE;
        }
    }

    @Override
    public boolean mustNotBlock() {
        return Context.isOnEventLoopThread();
    }

    @Override
    public Executor capture() {
        Context context = Vertx.currentContext();
        return context == null ? null : task -> context.runOnContext(ignored -> task.run());
    }
}
