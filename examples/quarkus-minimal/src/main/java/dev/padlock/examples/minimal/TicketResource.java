package dev.padlock.examples.minimal;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

/** {@code POST /tickets/<event>} sells one, {@code POST /tickets/<event>/hold?ms=} holds the lock, {@code GET} counts. */
@Path("/tickets/{event}")
public class TicketResource {

    @Inject
    Tickets tickets;

    @POST
    public String sell(@PathParam("event") String event) throws InterruptedException {
        return tickets.sell(event);
    }

    @POST
    @Path("hold")
    public Uni<String> hold(@PathParam("event") String event, @QueryParam("ms") @DefaultValue("1000") long millis) {
        return tickets.hold(event, millis);
    }

    @GET
    public int sold(@PathParam("event") String event) {
        return tickets.sold(event);
    }
}
