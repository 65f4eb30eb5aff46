/**
 * The programmatic API, {@code Locks}: a request by name and keys, planned on first use with the same rules as an
 * annotated method and run as an operation runs a method. Asks the engine through {@code Planner}, which it declares.
 *
 * <p>Internal: public only so that the other engine packages can use it; no compatibility promise.
 */
package dev.padlock.core.programmatic;
