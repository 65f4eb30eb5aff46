package dev.padlock.examples.inventory;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /orders?item=<sku>&quantity=<n>}: reserves stock for an order line, under the same lock as {@code POST
 * /stock/<sku>/reservations}, taken in code ({@code Locks}) rather than by {@code @Locked}.
 */
@Path("/orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    @Inject
    Inventory inventory;

    @Inject
    Stock stock;

    /** As in {@link StockResource}: only the Quarkus example's unlocked control run turns it off. */
    @Inject
    @ConfigProperty(name = "inventory.locking", defaultValue = "true")
    boolean locking;

    @POST
    @Transactional
    public Reservation order(@QueryParam("item") String item, @QueryParam("quantity") @DefaultValue("1") int quantity) {
        Quantities.requirePositive(quantity);
        if (item == null || item.isBlank()) {
            throw ErrorMappers.badRequest("name the item: /orders?item=<sku>&quantity=<n>");
        }
        if (!locking) {
            String sku = item.strip();
            return new Reservation(sku, quantity, stock.take(sku, quantity));
        }
        return inventory.order(item, quantity);
    }
}
