package dev.padlock.core.config;

/**
 * What a call does when its lock was lost while the method ran ({@code padlock.on-lease-lost}, per lock
 * {@code padlock.locks."<name>".on-lease-lost}). The event, the WARN line and the metric happen either way.
 */
public enum LeaseLossPolicy {
    /** Report it; the call returns its result. The default. */
    WARN,
    /** Report it, then throw {@code LockLostException} after the method (suppressed into its own exception). */
    THROW
}
