package dev.padlock.testing;

import java.util.List;

/** Closing several servers at once, as the cluster and the sentinel set-up do, without losing a failure. */
final class Closing {

    private Closing() {}

    /** Closes everything, newest first, keeping the first failure as the one to report. */
    static void closeAll(List<? extends AutoCloseable> closeables, RuntimeException primary) {
        RuntimeException failure = primary;
        for (int i = closeables.size() - 1; i >= 0; i--) {
            AutoCloseable closeable = closeables.get(i);
            try {
                closeable.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException
                            ? (RuntimeException) e
                            : new IllegalStateException("Cannot close " + closeable, e);
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (primary == null && failure != null) {
            throw failure;
        }
    }
}
