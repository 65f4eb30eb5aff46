package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigKeys;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's configuration tables (those whose first column is headed "key") are the reference users read: every key Padlock reads must be there, and every
 * key they name must be one Padlock reads. The {@code padlock.*} keys come from {@link ConfigKeys}; the
 * {@code quarkus.padlock.*} keys from the configuration model the Quarkus extension processor generates from
 * {@link PadlockBuildTimeConfig}.
 */
class ConfigReferenceTest {

    /** A key in the first column of a README table row: {@code | `padlock.x` ...}. */
    private static final Pattern TABLE_KEY =
            Pattern.compile("^\\| `((?:quarkus\\.)?padlock\\.[^`]+)`", Pattern.MULTILINE);

    private static final Pattern MODEL_PROPERTY = Pattern.compile("\"property\" : \"((?:\\\\.|[^\"\\\\])*)\"");

    @Test
    void everyKeyPadlockReadsIsInTheReadmeAndNoOther() throws Exception {
        Set<String> documented = documentedKeys();
        Set<String> read = new TreeSet<>();
        read.addAll(padlockKeys());
        read.addAll(quarkusKeys());

        assertThat(documented).as("keys in the README's tables").containsExactlyInAnyOrderElementsOf(read);
    }

    private static Set<String> documentedKeys() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Set<String> keys = new TreeSet<>();
        boolean inKeyTable = false;
        for (String line : readme.lines().toList()) {
            // only tables whose first column is headed "key" (other tables name meters, members, ...)
            if (!line.startsWith("|")) {
                inKeyTable = false;
                continue;
            }
            if (line.startsWith("| key")) {
                inKeyTable = true;
                continue;
            }
            Matcher key = TABLE_KEY.matcher(line);
            if (!inKeyTable || !key.find()) {
                continue;
            }
            String first = line.split("\\|")[1];
            // a row may name several keys, e.g. `padlock.redis.username` / `padlock.redis.password`, or per-lock
            // properties after the first one: `padlock.locks."<name>".wait-time` / `lease-time` / `on-failure`
            String base = key.group(1).substring(0, key.group(1).lastIndexOf('.') + 1);
            Matcher each = Pattern.compile("`([^`]+)`").matcher(first);
            while (each.find()) {
                String name = each.group(1);
                keys.add(name.contains(".") ? name : base + name);
            }
        }
        return keys;
    }

    private static Set<String> padlockKeys() throws IllegalAccessException {
        Set<String> keys = new TreeSet<>();
        for (Field field : ConfigKeys.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && field.get(null) instanceof String value
                    && value.startsWith("padlock.")) {
                keys.add(value);
            }
        }
        for (String property : List.of(
                ConfigKeys.TYPE,
                ConfigKeys.LOCK_WAIT_TIME,
                ConfigKeys.LOCK_LEASE_TIME,
                ConfigKeys.ON_FAILURE,
                ConfigKeys.LOCK_ON_LEASE_LOST)) {
            keys.add(ConfigKeys.perLock("<name>", property));
        }
        return keys;
    }

    /** From the generated model, with a map key written as the README writes it ({@code container-env.<NAME>}). */
    private static Set<String> quarkusKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        try (InputStream in = PadlockBuildTimeConfig.class.getResourceAsStream(
                "/META-INF/quarkus-config-doc/quarkus-config-model.json")) {
            assertThat(in)
                    .as("the configuration model the extension processor generates")
                    .isNotNull();
            Matcher property = MODEL_PROPERTY.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            while (property.find()) {
                keys.add(property.group(1).replace("\\\"", "\"").replaceAll("\\.\"[^\"]+\"$", ".<NAME>"));
            }
        }
        return keys;
    }
}
