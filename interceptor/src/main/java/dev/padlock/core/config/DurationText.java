package dev.padlock.core.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** The duration syntax of annotation members and configuration: {@code 0}, {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d}, ISO {@code PT5S}. */
public final class DurationText {

    /** What every message about a bad duration tells the user to write instead. */
    private static final String SYNTAX = "use 0, 250ms, 5s, 2m, 1h, 1d or ISO-8601 such as PT5S";

    /**
     * The longest duration Padlock accepts anywhere: 10 years. No lock needs more, and every duration then fits
     * the engine's arithmetic in milliseconds and nanoseconds (a deadline of {@code nanoTime} plus the wait
     * overflows beyond about 292 years, milliseconds of {@code Duration.ofDays(200000000000L)} at once).
     */
    public static final Duration MAX = Duration.ofDays(3650);

    /**
     * The shortest fixed lease: Redis keeps leases in whole milliseconds, and a lease that rounds to 0 would
     * read as "no lease", that is the watchdog.
     */
    public static final Duration MIN_LEASE = Duration.ofMillis(1);

    private DurationText() {}

    /**
     * @throws IllegalArgumentException with a message saying what is wrong (the caller adds where it was)
     */
    public static Duration parse(String text) {
        String s = text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' is empty; " + SYNTAX);
        }
        Duration d;
        if (s.charAt(0) == 'P' || s.charAt(0) == 'p' || s.startsWith("-P") || s.startsWith("-p")) {
            try {
                d = Duration.parse(s.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not a duration; " + SYNTAX);
            }
        } else {
            d = parseWithUnit(text, s);
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("'" + text + "' is negative; " + SYNTAX);
        }
        if (d.compareTo(MAX) > 0) {
            throw tooLarge(text);
        }
        return d;
    }

    private static Duration parseWithUnit(String original, String s) {
        int i = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("'" + original + "' is not a duration; " + SYNTAX);
        }
        long amount;
        try {
            amount = Long.parseLong(s.substring(0, i));
        } catch (NumberFormatException e) {
            throw tooLarge(original);
        }
        String unit = s.substring(i).trim().toLowerCase(Locale.ROOT);
        try {
            return switch (unit) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                case "d" -> Duration.ofDays(amount);
                case "" -> {
                    if (amount != 0) {
                        throw new IllegalArgumentException("'" + original + "' has no unit; " + SYNTAX);
                    }
                    yield Duration.ZERO;
                }
                default ->
                    throw new IllegalArgumentException(
                            "'" + original + "' has an unknown unit '" + unit + "'; " + SYNTAX);
            };
        } catch (ArithmeticException e) {
            throw tooLarge(original);
        }
    }

    private static IllegalArgumentException tooLarge(String text) {
        return new IllegalArgumentException("'" + text + "' is more than 10 years (" + MAX.toDays() + "d); " + SYNTAX);
    }

    /** A short human form for messages: {@code 0ms}, {@code 250ms}, {@code 5s}, {@code 2m30s}. */
    public static String format(Duration d) {
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
