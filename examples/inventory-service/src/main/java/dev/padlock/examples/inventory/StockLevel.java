package dev.padlock.examples.inventory;

/** How many units of {@code sku} are in stock. */
public record StockLevel(String sku, int quantity) {}
