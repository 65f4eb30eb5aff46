/** Build steps of Padlock's Quarkus extension. Internal: no compatibility promise. */
package dev.padlock.quarkus.deployment;
