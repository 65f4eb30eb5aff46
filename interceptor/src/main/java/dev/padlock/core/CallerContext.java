package dev.padlock.core;

import java.util.concurrent.Executor;

/**
 * Where a call comes from, for operations that must not block it: on Quarkus, a Vert.x event loop. The
 * portable extension has none ({@link #NONE}).
 */
public interface CallerContext {

    CallerContext NONE = new CallerContext() {
        @Override
        public boolean mustNotBlock() {
            return false;
        }

        @Override
        public Executor capture() {
            return null;
        }
    };

    /** Whether the calling thread must not block (a Vert.x event-loop thread). */
    boolean mustNotBlock();

    /**
     * An executor that runs tasks where the caller runs (its Vert.x context, so a reactive pipeline continues on
     * its event loop), or {@code null} when the caller has no such context.
     */
    Executor capture();
}
