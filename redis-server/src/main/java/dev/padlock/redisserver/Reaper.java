package dev.padlock.redisserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Last line of defence for a JVM that ends without closing what it started (System.exit, a test
 * runner that does not call afterAll, Ctrl-C): one shutdown hook ends whatever is still registered. A SIGKILLed JVM
 * runs no hooks; the {@link ProcessWatcher} covers that case.
 */
public final class Reaper {
    /** Something to end as the JVM goes down. */
    public interface Reapable {
        /** Must be fast and must not throw: it runs while the JVM is going down. */
        void reap();
    }

    private static final Set<Reapable> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;

    private Reaper() {}

    /** Ends {@code reapable} as the JVM goes down, unless it is {@link #unregister unregistered} first. */
    public static void register(Reapable reapable) {
        installHook();
        LIVE.add(reapable);
    }

    /** For what has been closed: the hook no longer needs to end it. */
    public static void unregister(Reapable reapable) {
        LIVE.remove(reapable);
    }

    private static void installHook() {
        if (hookInstalled) {
            return;
        }
        synchronized (Reaper.class) {
            if (hookInstalled) {
                return;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(Reaper::reapAll, "padlock-redis-reaper"));
            hookInstalled = true;
        }
    }

    private static void reapAll() {
        List<Reapable> all = new ArrayList<>(LIVE);
        LIVE.clear();
        for (Reapable reapable : all) {
            try {
                reapable.reap();
            } catch (RuntimeException | Error ignored) {
                // Keep going: the other processes still need to die.
            }
        }
    }
}
