/**
 * Padlock's test kit, for the tests of applications that use Padlock: {@link dev.padlock.testkit.PadlockAssert}
 * checks from inside the code under test that it runs under a lock, and {@link dev.padlock.testkit.OtherOwner} holds a
 * lock key as another application would, to drive the code into its "not acquired" and {@code SKIP} paths.
 */
package dev.padlock.testkit;
