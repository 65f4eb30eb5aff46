package dev.padlock.core;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import java.time.Duration;

/**
 * What one lock resolved to after configuration, annotation and defaults.
 *
 * @param leaseTime a fixed lease, or {@code null} when Redisson's watchdog renews the lock
 */
public record LockSettings(LockType type, Duration waitTime, Duration leaseTime, OnFailure onFailure) {

    public boolean usesWatchdog() {
        return leaseTime == null;
    }
}
