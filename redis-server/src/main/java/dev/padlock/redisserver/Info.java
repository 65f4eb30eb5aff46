package dev.padlock.redisserver;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the "key:value" lines that INFO and CLUSTER INFO return. */
public final class Info {
    private Info() {}

    /** The fields of a reply in their order; empty for anything but a string. */
    public static Map<String, String> fields(Object reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (!(reply instanceof String)) {
            return fields;
        }
        for (String line : ((String) reply).split("\r?\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }
}
