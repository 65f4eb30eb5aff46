package dev.padlock.examples.inventory;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /reports/nightly}: what every instance's scheduler would call at night. 200 with the report from the
 * instance that ran it; 409 from the ones that found another instance running it and skipped.
 */
@Path("/reports/nightly")
@Produces(MediaType.APPLICATION_JSON)
public class ReportResource {

    @Inject
    Inventory inventory;

    @POST
    public Response run() throws InterruptedException {
        return inventory
                .nightlyReport()
                .map(report -> Response.ok(report).build())
                .orElseGet(() -> Response.status(Response.Status.CONFLICT)
                        .entity(new Problem("skipped: another instance is running the nightly report"))
                        .build());
    }
}
