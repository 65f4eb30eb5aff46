package dev.padlock.examples.inventory;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** The HTTP face of {@link LockProbe}, for {@link DevModeTest} (the application runs in its own class loader). */
@Path("/probe")
public class LockProbeResource {

    @Inject
    LockProbe probe;

    @POST
    @Path("/hold/{id}")
    public String hold(@PathParam("id") String id) throws InterruptedException {
        return probe.hold(id);
    }

    @POST
    @Path("/overrun")
    public String overrun() throws InterruptedException {
        return probe.overrun();
    }

    @POST
    @Path("/release")
    public void release() {
        probe.releaseAll();
    }
}
