package dev.padlock.examples.inventory;

/** A completed transfer and both SKUs' levels after it. */
public record Transfer(String from, String to, int quantity, int fromRemaining, int toLevel) {}
