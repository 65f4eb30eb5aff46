package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import java.util.List;

/** The members of one {@link Locked} annotation, whether read by reflection or from Jandex. */
public record LockedSpec(
        String value,
        List<String> key,
        LockType type,
        String waitTime,
        String leaseTime,
        OnFailure onFailure,
        String holdAtLeast) {

    /** Without a hold-at-least. */
    public LockedSpec(
            String value, List<String> key, LockType type, String waitTime, String leaseTime, OnFailure onFailure) {
        this(value, key, type, waitTime, leaseTime, onFailure, "");
    }

    public static LockedSpec of(Locked locked) {
        return new LockedSpec(
                locked.value(),
                List.of(locked.key()),
                locked.type(),
                locked.waitTime(),
                locked.leaseTime(),
                locked.onFailure(),
                locked.holdAtLeast());
    }
}
