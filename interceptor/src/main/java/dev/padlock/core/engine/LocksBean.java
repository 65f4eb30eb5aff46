package dev.padlock.core.engine;

import dev.padlock.LockRequest;
import dev.padlock.Locks;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;

/** The {@link Locks} bean: the engine's, so that every injection of it shares one set of planned operations. */
@Dependent
public class LocksBean implements Locks {

    private final Locks locks;

    @Inject
    public LocksBean(PadlockEngine engine) {
        this.locks = engine.locks();
    }

    @Override
    public LockRequest on(String name) {
        return locks.on(name);
    }

    @Override
    public LockRequest on(String name, Object key) {
        return locks.on(name, key);
    }

    @Override
    public LockRequest on(String name, Object key, Object... moreKeys) {
        return locks.on(name, key, moreKeys);
    }
}
