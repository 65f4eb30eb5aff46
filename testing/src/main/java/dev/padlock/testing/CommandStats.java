package dev.padlock.testing;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How often each command ran on a server, from INFO commandstats. Tests use deltas of two snapshots
 * to prove what a client really sent, e.g. that a lock release was one EVALSHA and no extra DEL.
 */
public final class CommandStats {
    private static final String PREFIX = "cmdstat_";
    // Reading the stats is itself an INFO; a delta that counted it would only ever show the harness.
    private static final String HARNESS_COMMAND = "info";

    private final Map<String, Long> calls;

    private CommandStats(Map<String, Long> calls) {
        this.calls = Collections.unmodifiableMap(calls);
    }

    static CommandStats parse(String info) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith(PREFIX)) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String command = line.substring(PREFIX.length(), colon).toLowerCase(Locale.ROOT);
            for (String field : line.substring(colon + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    calls.put(
                            command,
                            Long.parseLong(field.substring("calls=".length()).trim()));
                }
            }
        }
        return new CommandStats(calls);
    }

    /** Calls of {@code command} (any case; subcommands as "client|setname"), 0 if it never ran. */
    public long calls(String command) {
        return calls.getOrDefault(command.toLowerCase(Locale.ROOT), 0L);
    }

    /** Command name in lower case to number of calls, sorted by name. */
    public Map<String, Long> asMap() {
        return calls;
    }

    public long total() {
        long total = 0;
        for (long count : calls.values()) {
            total += count;
        }
        return total;
    }

    /**
     * What ran between {@code earlier} and this snapshot. Only commands whose count changed appear, and
     * never "info", which the harness itself sends to take the snapshots.
     */
    public CommandStats minus(CommandStats earlier) {
        Map<String, Long> delta = new TreeMap<>();
        for (Map.Entry<String, Long> entry : calls.entrySet()) {
            long change = entry.getValue() - earlier.calls(entry.getKey());
            if (change != 0) {
                delta.put(entry.getKey(), change);
            }
        }
        for (Map.Entry<String, Long> entry : earlier.calls.entrySet()) {
            if (!calls.containsKey(entry.getKey()) && entry.getValue() != 0) {
                // Only after a restart or CONFIG RESETSTAT; keep it visible rather than hide it.
                delta.put(entry.getKey(), -entry.getValue());
            }
        }
        delta.remove(HARNESS_COMMAND);
        return new CommandStats(delta);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CommandStats && calls.equals(((CommandStats) other).calls);
    }

    @Override
    public int hashCode() {
        return calls.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("CommandStats{total=").append(total());
        for (Map.Entry<String, Long> entry : calls.entrySet()) {
            text.append(", ").append(entry.getKey()).append('=').append(entry.getValue());
        }
        return text.append('}').toString();
    }
}
