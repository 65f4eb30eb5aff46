package dev.padlock.core.programmatic;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.SettingValues;
import dev.padlock.core.plan.LockedSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What one call set, unset values {@code null} or empty; equal settings share an operation.
 *
 * @param lease a duration in ISO form, {@link SettingValues#WATCHDOG}, or empty for the global default
 * @param holdAtLeast a duration in ISO form, or empty for none
 */
record RequestSettings(
        String name,
        int keyCount,
        LockType type,
        String waitTime,
        String lease,
        OnFailure onFailure,
        String holdAtLeast) {

    /**
     * How messages, events and metrics name a lock taken in code, e.g. {@code Locks.on("stock", key)}. The type
     * is part of it when set, so that two calls of one name with different types are told apart.
     */
    String display() {
        return "Locks.on(\"" + name + "\"" + (keyCount == 0 ? "" : keyCount == 1 ? ", key" : ", keys") + ")"
                + (type == null ? "" : ".type(" + type.name() + ")");
    }

    LockedSpec spec() {
        List<String> templates = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            templates.add("{" + i + "}");
        }
        return new LockedSpec(
                name,
                List.copyOf(templates),
                type == null ? LockType.REENTRANT : type,
                waitTime,
                lease,
                onFailure == null ? OnFailure.THROW : onFailure,
                holdAtLeast);
    }

    RequestSettings withType(LockType t) {
        return new RequestSettings(name, keyCount, t, waitTime, lease, onFailure, holdAtLeast);
    }

    RequestSettings withWait(String w) {
        return new RequestSettings(name, keyCount, type, w, lease, onFailure, holdAtLeast);
    }

    RequestSettings withLease(String l) {
        return new RequestSettings(name, keyCount, type, waitTime, l, onFailure, holdAtLeast);
    }

    RequestSettings withOnFailure(OnFailure f) {
        return new RequestSettings(name, keyCount, type, waitTime, lease, f, holdAtLeast);
    }

    RequestSettings withHoldAtLeast(String h) {
        return new RequestSettings(name, keyCount, type, waitTime, lease, onFailure, h);
    }
}
