/**
 * Padlock's meters on Micrometer. Loaded only when Micrometer is on the class path and the application has a {@code
 * MeterRegistry}: the integrations name {@link dev.padlock.core.metrics.MicrometerLockEvents} behind that check, and
 * nothing else in Padlock refers to this package.
 */
package dev.padlock.core.metrics;
