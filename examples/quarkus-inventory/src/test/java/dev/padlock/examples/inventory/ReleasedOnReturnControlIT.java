package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.examples.load.ReservationRun;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The second control for {@link TwoInstancesIT}: locked as there, but with the test-only profile {@code on-return},
 * in which the {@code stock} lock is released when {@code Inventory.reserve} returns, before the resource's
 * transaction commits the new level. The next reservation, on either instance, then reads the level that is about to
 * change, and the same load confirms more reservations than there was stock. So the exact count in {@link
 * TwoInstancesIT} also needs the lock to outlive the transaction ({@code padlock.release=after-transaction}).
 */
class ReleasedOnReturnControlIT {

    static TwoInstances instances;

    @BeforeAll
    static void start() {
        instances = TwoInstances.start("on-return", Map.of("quarkus.profile", "on-return"));
    }

    @AfterAll
    static void stop() {
        if (instances != null) {
            instances.close();
        }
    }

    /**
     * The window is short (from the locked method's return to the commit, a millisecond or so), so each round oversells
     * a few units (3 to 9 of 100 in four runs here); the load runs again on a fresh SKU, up to five rounds, until one
     * does.
     */
    @Test
    void releasedBeforeTheCommitTheSameLoadOversells() {
        int oversold = 0;
        for (int round = 1; round <= 5 && oversold == 0; round++) {
            String sku = "apple-" + round;
            instances.client.restock(instances.uris().get(0), sku, TwoInstancesIT.STOCK);
            ReservationRun run = instances.client.reserveConcurrently(
                    instances.uris(), sku, TwoInstancesIT.REQUESTS, TwoInstancesIT.CLIENT_THREADS);
            int left = instances.storedLevel(sku);
            oversold = run.oversold(TwoInstancesIT.STOCK, left);
            System.out.printf(
                    "Released-on-return control, round %d: %s; %d left in stock, %d oversold%n",
                    round, run, left, oversold);
        }
        assertThat(oversold)
                .as("units oversold in the first round that oversold any")
                .isPositive();
    }
}
