package dev.padlock.examples.inventory;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /stock/<sku>/counts}: counts a SKU's shelf, answering when the count is done (see {@link StockCount}). */
@Path("/stock/{sku}/counts")
@Produces(MediaType.APPLICATION_JSON)
public class StockCountResource {

    @Inject
    StockCount counts;

    @POST
    public Uni<StockLevel> count(@PathParam("sku") String sku) {
        return counts.count(sku);
    }
}
