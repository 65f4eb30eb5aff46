package dev.padlock.core;

import java.util.concurrent.ThreadFactory;

/**
 * How Padlock's own threads are made: daemon, so an application that forgets to close Padlock still exits; named,
 * so a thread dump says whose they are; and with Padlock's class loader as context loader, not that of whichever
 * application thread happened to start them (which would pin an undeployed application's class loader).
 */
public final class PadlockThreads {

    private PadlockThreads() {}

    /** Threads for an executor, each called {@code name}. */
    public static ThreadFactory daemon(String name) {
        return task -> prepare(new Thread(task), name);
    }

    /** Makes {@code thread}, not yet started, one of Padlock's, called {@code name}. */
    public static <T extends Thread> T prepare(T thread, String name) {
        thread.setName(name);
        thread.setDaemon(true);
        thread.setContextClassLoader(PadlockThreads.class.getClassLoader());
        return thread;
    }
}
