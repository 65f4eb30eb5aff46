package dev.padlock.examples.inventory;

import java.time.Instant;
import java.util.Map;

/** Every SKU's level at {@code takenAt}. */
public record StockReport(Instant takenAt, Map<String, Integer> levels) {}
