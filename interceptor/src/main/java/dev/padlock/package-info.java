/**
 * Padlock's public API: {@link dev.padlock.Locked} and what it throws. Everything outside this package is
 * internal and may change in any release.
 */
package dev.padlock;
