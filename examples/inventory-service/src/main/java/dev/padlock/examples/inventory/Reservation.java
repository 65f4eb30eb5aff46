package dev.padlock.examples.inventory;

/** A successful reservation: {@code quantity} units of {@code sku}, with {@code remaining} left in stock. */
public record Reservation(String sku, int quantity, int remaining) {}
