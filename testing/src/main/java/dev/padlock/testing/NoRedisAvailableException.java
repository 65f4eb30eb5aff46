package dev.padlock.testing;

/**
 * No way to get a Redis was found. Thrown instead of skipping so that a build without Redis fails
 * loudly rather than passing with its lock tests silently left out.
 */
public final class NoRedisAvailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoRedisAvailableException(String message) {
        super(message);
    }
}
