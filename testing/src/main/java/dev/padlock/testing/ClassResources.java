package dev.padlock.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** What {@link RedisExtension} started for one test class, closed together after the class. */
final class ClassResources implements AutoCloseable {
    // A value is either the started resource or the failure to start it: remembering the failure
    // fails the class's other tests at once instead of each sitting through the same timeout.
    private final Map<String, Object> started = new LinkedHashMap<>();
    private boolean closed;

    synchronized <T extends AutoCloseable> T get(String key, Class<T> type, Supplier<T> starter) {
        if (closed) {
            throw new IllegalStateException("The Redis resources of this test class have already been closed");
        }
        Object existing = started.get(key);
        if (existing instanceof RuntimeException) {
            throw (RuntimeException) existing;
        }
        if (existing != null) {
            return type.cast(existing);
        }
        try {
            T value = starter.get();
            started.put(key, value);
            return value;
        } catch (RuntimeException e) {
            started.put(key, e);
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<AutoCloseable> resources = new ArrayList<>();
        for (Object value : started.values()) {
            if (value instanceof AutoCloseable) {
                resources.add((AutoCloseable) value);
            }
        }
        started.clear();
        Closing.closeAll(resources, null);
    }
}
