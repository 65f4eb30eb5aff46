package dev.padlock.examples.inventory;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Stock levels and reservations: {@code GET|PUT /stock/<sku>}, {@code POST /stock/<sku>/reservations}. */
@Path("/stock")
@Produces(MediaType.APPLICATION_JSON)
public class StockResource {

    @Inject
    Inventory inventory;

    @Inject
    Stock stock;

    /**
     * Only the Quarkus example's control run turns this off ({@code inventory.locking=false}, its test profile
     * {@code unlocked}), to show what the lock prevents: reservations then go to {@link Stock} directly and oversell.
     */
    @Inject
    @ConfigProperty(name = "inventory.locking", defaultValue = "true")
    boolean locking;

    @GET
    @Path("{sku}")
    public StockLevel level(@PathParam("sku") String sku) {
        return new StockLevel(sku, stock.level(sku));
    }

    @PUT
    @Path("{sku}")
    @Transactional
    public StockLevel restock(@PathParam("sku") String sku, @QueryParam("quantity") int quantity) {
        Quantities.requireNotNegative(quantity);
        inventory.restock(sku, quantity);
        return new StockLevel(sku, quantity);
    }

    /**
     * The reservation runs inside this method's transaction: the resource, not the locked service, owns it. The lock
     * taken by {@link Inventory#reserve} is kept until the transaction commits, so the next reservation of the SKU,
     * on this instance or another, reads the committed level (with {@code inventory.stock-store=database}).
     */
    @POST
    @Path("{sku}/reservations")
    @Transactional
    public Reservation reserve(@PathParam("sku") String sku, @QueryParam("quantity") @DefaultValue("1") int quantity) {
        Quantities.requirePositive(quantity);
        if (!locking) {
            return new Reservation(sku, quantity, stock.take(sku, quantity));
        }
        return inventory.reserve(sku, quantity);
    }
}
