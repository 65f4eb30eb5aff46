package dev.padlock.examples.inventory;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /transfers?from=<sku>&to=<sku>&quantity=<n>}: moves stock between two SKUs under both locks. */
@Path("/transfers")
@Produces(MediaType.APPLICATION_JSON)
public class TransferResource {

    @Inject
    Inventory inventory;

    @POST
    @Transactional
    public Transfer transfer(
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("quantity") int quantity) {
        Quantities.requirePositive(quantity);
        if (from == null || to == null || from.equals(to)) {
            throw ErrorMappers.badRequest("give two different SKUs: /transfers?from=<sku>&to=<sku>&quantity=<n>");
        }
        return inventory.transfer(from, to, quantity);
    }
}
