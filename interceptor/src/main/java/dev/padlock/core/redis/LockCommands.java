package dev.padlock.core.redis;

import java.util.concurrent.CompletableFuture;
import org.redisson.api.RLock;

/**
 * The lock commands a call sends to Redis, as an instance the engine is given: {@link #REDISSON} everywhere, a scripted
 * one in the engine's value tests, so that a test can make Redis answer "held", "not held" or nothing at all at a
 * chosen step of a call. Renewals go through {@link LockKind}, whose scripts differ per lock type.
 */
public interface LockCommands {

    /** Redisson's commands ({@link Acquisition}). */
    LockCommands REDISSON = new LockCommands() {
        @Override
        public CompletableFuture<Boolean> tryLock(RLock lock, long waitMillis, long leaseMillis, long owner) {
            return Acquisition.tryLock(lock, waitMillis, leaseMillis, owner);
        }

        @Override
        public CompletableFuture<Long> tryFenced(RLock lock, long waitMillis, long leaseMillis, long owner) {
            return Acquisition.tryFenced(lock, waitMillis, leaseMillis, owner);
        }

        @Override
        public CompletableFuture<Void> unlock(RLock lock, long owner) {
            return Acquisition.unlock(lock, owner);
        }

        @Override
        public CompletableFuture<Boolean> stillHeld(RLock lock, long owner) {
            return Acquisition.stillHeld(lock, owner);
        }
    };

    /** Takes {@code lock} for {@code owner}, waiting in Redis up to {@code waitMillis}; see {@link Acquisition}. */
    CompletableFuture<Boolean> tryLock(RLock lock, long waitMillis, long leaseMillis, long owner);

    /** As {@link #tryLock} for a fenced lock: the fencing token, or {@code null} when not free in time. */
    CompletableFuture<Long> tryFenced(RLock lock, long waitMillis, long leaseMillis, long owner);

    /** Unlocks {@code lock} if {@code owner} holds it; fails with {@code IllegalMonitorStateException} if not. */
    CompletableFuture<Void> unlock(RLock lock, long owner);

    /** Whether {@code owner} still holds {@code lock}. */
    CompletableFuture<Boolean> stillHeld(RLock lock, long owner);
}
