package dev.padlock.examples.inventory;

import dev.padlock.Locked;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A physical stock count of one SKU: while someone counts the shelf, nobody sells from it. The count returns a {@code
 * Uni} that completes when the count is done ({@code inventory.count-ms} after it read the level); {@code @Locked}
 * keeps the SKU's lock, the one reservations take, until then, and no thread waits meanwhile. Called on an event loop,
 * Padlock acquires without blocking it.
 */
@ApplicationScoped
public class StockCount {

    @Inject
    Stock stock;

    /** How long a count takes, in milliseconds. */
    @Inject
    @ConfigProperty(name = "inventory.count-ms", defaultValue = "1000")
    long countMs;

    @Locked(value = "stock", key = "{sku}")
    public Uni<StockLevel> count(String sku) {
        return Uni.createFrom()
                .item(() -> new StockLevel(sku, stock.level(sku)))
                // the level comes from the database: read it on a worker thread, never on the event loop
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onItem()
                .delayIt()
                .by(Duration.ofMillis(countMs));
    }
}
