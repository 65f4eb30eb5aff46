package dev.padlock.examples.inventory;

/** Fewer units in stock than requested; nothing was changed. */
public class OutOfStockException extends RuntimeException {

    private final String sku;
    private final int requested;
    private final int available;

    public OutOfStockException(String sku, int requested, int available) {
        super("Cannot take " + requested + " of " + sku + ": " + available + " in stock");
        this.sku = sku;
        this.requested = requested;
        this.available = available;
    }

    public String sku() {
        return sku;
    }

    public int requested() {
        return requested;
    }

    public int available() {
        return available;
    }
}
