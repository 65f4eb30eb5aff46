/**
 * One call's state: {@code LockedCall} (its locks, tokens, turns, the holds handed to it, the calls it nests in), its
 * lease book ({@code LeaseBook}: phase, renewals in flight, sharers; above it {@code LeaseDeadlines}: deadlines, losses,
 * owed leases), what is fixed per method ({@code CallFacts}), the hand-off
 * rules ({@code HandOff}), and {@code BoundCall}, what the test kit reads of the calls bound to a thread.
 *
 * <p>Internal: public only so that the other engine packages and the test kit can use it; no compatibility promise.
 */
package dev.padlock.core.call;
