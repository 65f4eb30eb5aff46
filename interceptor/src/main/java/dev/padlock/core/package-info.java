/**
 * Padlock's lock engine: operations, key templates, settings, validation and its messages. Internal: the
 * classes are public only so that Padlock's CDI and Quarkus integrations can share them; they carry no
 * compatibility promise.
 */
package dev.padlock.core;
