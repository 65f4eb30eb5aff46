package dev.padlock.examples.inventory;

/** The body of every error response. */
public record Problem(String error) {}
