/** Padlock's Quarkus extension: its build-time configuration. */
package dev.padlock.quarkus;
