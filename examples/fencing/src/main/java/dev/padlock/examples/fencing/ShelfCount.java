package dev.padlock.examples.fencing;

import dev.padlock.LockContext;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.fencing.StaleTokenException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.function.IntSupplier;

/**
 * Counts a shelf and records the count, under a {@code FENCED} lock per SKU. Counting takes a while (a person with
 * a scanner, a call to a warehouse system), and the holder may pause on the way (a GC pause): long enough for its
 * lease to run out and another holder to count and record the same SKU. The store's token check keeps that newer
 * record, and tells this holder so.
 */
@ApplicationScoped
public class ShelfCount {

    /**
     * What a holder recorded: its fencing token, and the store's refusal when a newer holder had already recorded.
     *
     * @param token the holder's fencing token
     * @param refusal null when the store took the count
     */
    public record Recorded(long token, StaleTokenException refusal) {
        /** Whether the store took the count. */
        public boolean written() {
            return refusal == null;
        }
    }

    @Inject
    LockContext lock;

    @Inject
    StockTable stock;

    @Locked(value = "stock", key = "{sku}", type = LockType.FENCED, leaseTime = "1s", waitTime = "10s")
    public Recorded record(String sku, IntSupplier count) throws SQLException {
        int qty = count.getAsInt();
        long token = lock.token(); // taken with the lock: it does not change when the lease runs out
        try {
            stock.write(sku, qty, token);
            return new Recorded(token, null);
        } catch (StaleTokenException refused) {
            // A newer holder has recorded this SKU: its count stands. Report this count as not recorded (no "stock
            // updated" message, no reorder computed from it).
            return new Recorded(token, refused);
        }
    }
}
