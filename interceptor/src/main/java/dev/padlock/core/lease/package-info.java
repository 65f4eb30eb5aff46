/**
 * Leases while a call holds its locks: one renewal timer per engine ({@code LeaseRenewal}) that renews, extends and
 * watches deadlines, asking each call what it says of itself ({@code CallFacts}); and how each kind of loss is
 * recorded, reported and turned into the caller's exception ({@code LockLosses}).
 *
 * <p>Internal: public only so that the other engine packages can use it; no compatibility promise.
 */
package dev.padlock.core.lease;
