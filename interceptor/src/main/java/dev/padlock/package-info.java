/**
 * Padlock's public API: {@link dev.padlock.Locked}, what it throws, the {@link dev.padlock.LockLost} event
 * and the {@link dev.padlock.LockContext} of a running call. Everything outside this package is
 * internal and may change in any release.
 */
package dev.padlock;
