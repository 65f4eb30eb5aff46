package dev.padlock.core.plan;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.LeaseLossPolicy;
import java.time.Duration;

/**
 * What one lock resolved to after configuration, annotation and defaults.
 *
 * @param leaseTime a fixed lease, or {@code null} when the lock is renewed while held (watchdog mode)
 * @param onLeaseLost whether a lost lock also makes the call throw
 */
public record LockSettings(
        LockType type, Duration waitTime, Duration leaseTime, OnFailure onFailure, LeaseLossPolicy onLeaseLost) {

    public boolean usesWatchdog() {
        return leaseTime == null;
    }
}
