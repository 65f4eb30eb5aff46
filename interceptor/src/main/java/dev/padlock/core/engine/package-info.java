/**
 * The front door: {@code PadlockEngine} (one per application: its operations, services and programmatic locks),
 * the interceptor, and the beans every application gets ({@code LocksBean}, {@code CurrentLockContext}).
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use it; no compatibility promise.
 */
package dev.padlock.core.engine;
