package dev.padlock.examples.inventory;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code POST /price-list/publications}: 200 when this instance published, 409 when another one was publishing. */
@Path("/price-list/publications")
@Produces(MediaType.APPLICATION_JSON)
public class PriceListResource {

    /** The body of a 200: when this instance published. */
    public record Publication(String publishedAt) {}

    @Inject
    PriceList priceList;

    @POST
    public Response publish() throws InterruptedException {
        return priceList.publish()
                ? Response.ok(new Publication(priceList.publishedAt())).build()
                : Response.status(Response.Status.CONFLICT)
                        .entity(new Problem("skipped: another instance is publishing the price list"))
                        .build();
    }
}
