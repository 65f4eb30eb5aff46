/**
 * Padlock's Quarkus runtime: recorder, runtime state and native-image substitutions. Internal: no
 * compatibility promise.
 */
package dev.padlock.quarkus.runtime.internal;
