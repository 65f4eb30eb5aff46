package dev.padlock.examples.inventory;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Bodies that resources return inside a {@code Response} (errors, the nightly report, a publication): their types
 * appear in no method's signature, so Quarkus cannot find them for Jackson, which reads them reflectively. A native
 * image needs them registered; on the JVM this changes nothing.
 */
@RegisterForReflection(targets = {Problem.class, StockReport.class, PriceListResource.Publication.class})
final class ResponseBodies {

    private ResponseBodies() {}
}
