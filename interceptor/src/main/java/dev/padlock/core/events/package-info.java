/**
 * What the engine tells observers of its locks: {@code LockEvents} and the meter each method gets (guarded, or
 * composed for two observers), a moment's picture for a live view ({@code LiveLocks}), and the loss reports (the CDI
 * event, the WARN line, JMX). The metrics and tracing packages see only this one.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use it; no compatibility promise.
 */
package dev.padlock.core.events;
