package dev.padlock.examples.inventory;

import dev.padlock.LockNotAcquiredException;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Error responses: 400 bad request, 409 out of stock, 503 lock not acquired in time. */
final class ErrorMappers {

    private ErrorMappers() {}

    static BadRequestException badRequest(String message) {
        return new BadRequestException(problem(Response.Status.BAD_REQUEST, message));
    }

    static Response problem(Response.Status status, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON)
                .entity(new Problem(message))
                .build();
    }

    @Provider
    public static class OutOfStock implements ExceptionMapper<OutOfStockException> {
        @Override
        public Response toResponse(OutOfStockException e) {
            return problem(Response.Status.CONFLICT, e.getMessage());
        }
    }

    /** Another caller held the SKU's lock for longer than the wait time: the caller may retry. */
    @Provider
    public static class LockNotAcquired implements ExceptionMapper<LockNotAcquiredException> {
        @Override
        public Response toResponse(LockNotAcquiredException e) {
            return problem(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        }
    }
}
