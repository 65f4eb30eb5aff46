/**
 * What runs per call: the engine of one application, the interceptor, an operation per {@code @Locked} method, the
 * state of one call, the local queue per key, lease renewal and deadlines, and loss reports. The sub-packages hold
 * what is decided once, at deployment, and the Redisson specifics.
 *
 * <p>Internal: the classes are public only so that Padlock's CDI and Quarkus integrations can use them; they carry no
 * compatibility promise.
 */
package dev.padlock.core;
