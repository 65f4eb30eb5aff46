package dev.padlock;

import java.time.Duration;

/**
 * The short duration form of the API's messages. A copy of the engine's formatter, kept here so that the public
 * API depends on nothing internal; {@code DurationsTest} holds the two to the same text.
 */
final class Durations {

    private Durations() {}

    /** {@code 0ms}, {@code 250ms}, {@code 5s}, {@code 2m30s}, {@code 90m}, {@code 1h}; {@code ?} for null. */
    static String format(Duration d) {
        if (d == null) {
            return "?";
        }
        long ms = d.toMillis();
        if (ms < 1000 || ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s < 60 || s % 60 != 0 && s < 3600) {
            return s < 60 ? s + "s" : (s / 60) + "m" + (s % 60) + "s";
        }
        long m = s / 60;
        return m % 60 == 0 ? (m / 60) + "h" : m + "m";
    }
}
