package dev.padlock.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Last line of defence for a JVM that ends without closing what it started (System.exit, a test
 * runner that does not call afterAll, Ctrl-C). A SIGKILLed JVM runs no hooks; the per-process
 * watcher shell covers that case.
 */
final class Reaper {
    interface Reapable {
        /** Must be fast and must not throw: it runs while the JVM is going down. */
        void reap();
    }

    private static final Set<Reapable> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;

    private Reaper() {}

    static void register(Reapable reapable) {
        installHook();
        LIVE.add(reapable);
    }

    static void unregister(Reapable reapable) {
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
