package dev.padlock.examples.load;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * What a burst of one-unit reservations got back.
 *
 * @param requests how many were sent
 * @param reservedBy how many each instance confirmed (HTTP 200)
 * @param statuses how many answers had each HTTP status (200 reserved, 409 out of stock, 503 lock wait timed out)
 * @param unexpected up to five answers that were neither 200 nor 409, for the failure message
 */
public record ReservationRun(
        int requests, Map<URI, Integer> reservedBy, Map<Integer, Integer> statuses, List<String> unexpected) {

    /** Reservations confirmed by all instances together. */
    public int reserved() {
        return reservedBy.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Units confirmed beyond what was in stock: reserved − (initial − final level). */
    public int oversold(int initialLevel, int finalLevel) {
        return reserved() - (initialLevel - finalLevel);
    }

    @Override
    public String toString() {
        return requests + " requests: " + reserved() + " reserved " + reservedBy + ", statuses " + statuses
                + (unexpected.isEmpty() ? "" : ", unexpected answers " + unexpected);
    }
}
