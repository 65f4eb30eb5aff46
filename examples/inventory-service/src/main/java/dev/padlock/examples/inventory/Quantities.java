package dev.padlock.examples.inventory;

final class Quantities {

    private Quantities() {}

    static void requirePositive(int quantity) {
        if (quantity <= 0) {
            throw ErrorMappers.badRequest("quantity must be at least 1, got " + quantity);
        }
    }

    static void requireNotNegative(int quantity) {
        if (quantity < 0) {
            throw ErrorMappers.badRequest("quantity must not be negative, got " + quantity);
        }
    }
}
