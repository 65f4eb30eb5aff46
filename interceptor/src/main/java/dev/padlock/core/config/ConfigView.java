package dev.padlock.core.config;

import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * Read access to {@code padlock.*} configuration; MicroProfile Config on every runtime, a map in unit tests.
 * Blank values count as absent.
 */
@FunctionalInterface
public interface ConfigView {

    Optional<String> raw(String key);

    default Optional<String> get(String key) {
        return raw(key).map(String::trim).filter(v -> !v.isEmpty());
    }

    /**
     * A per-lock key: {@code padlock.locks."<lock>".<property>}, also found unquoted. Returns the key that
     * is set (so messages can name it) with its value.
     */
    default Optional<Map.Entry<String, String>> perLock(String lock, String property) {
        String quoted = ConfigKeys.perLock(lock, property);
        Optional<String> v = get(quoted);
        if (v.isPresent()) {
            return Optional.of(Map.entry(quoted, v.get()));
        }
        String plain = ConfigKeys.perLockUnquoted(lock, property);
        return get(plain).map(value -> Map.entry(plain, value));
    }

    static ConfigView of(Map<String, String> values) {
        return key -> Optional.ofNullable(values.get(key));
    }

    static ConfigView of(Config config) {
        return key -> config.getOptionalValue(key, String.class);
    }
}
