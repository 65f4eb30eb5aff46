/**
 * Padlock's spans on OpenTelemetry. Loaded only when the OpenTelemetry API is on the class path and the application
 * traces: the integrations name {@link dev.padlock.core.tracing.OpenTelemetryLockEvents} behind that check, and
 * nothing else in Padlock refers to this package. Internal: no compatibility promise.
 */
package dev.padlock.core.tracing;
