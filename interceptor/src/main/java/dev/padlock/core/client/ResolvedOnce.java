package dev.padlock.core.client;

import java.util.function.Supplier;

/**
 * A container look-up done on first use and then remembered, so that no locked call pays for it again. A
 * failed look-up is retried by the next caller.
 */
public final class ResolvedOnce<T> implements Supplier<T> {

    private final Supplier<T> lookup;
    private volatile T value;

    private ResolvedOnce(Supplier<T> lookup) {
        this.lookup = lookup;
    }

    public static <T> ResolvedOnce<T> of(Supplier<T> lookup) {
        return new ResolvedOnce<>(lookup);
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                if (value == null) {
                    value = lookup.get();
                }
                v = value;
            }
        }
        return v;
    }
}
