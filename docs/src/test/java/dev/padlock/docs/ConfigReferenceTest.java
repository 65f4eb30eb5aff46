package dev.padlock.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigKeys;
import java.io.IOException;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the configuration reference, the documentation's key tables and the keys Padlock reads in step.
 * {@code reference/configuration.md} is generated: the Quarkus config-doc plugin renders the configuration models of {@link PadlockConfigReference}
 * and {@link PadlockDeploymentTimeReference} ({@code padlock.*}) and of the extension's {@code PadlockBuildTimeConfig} ({@code quarkus.padlock.*}) into
 * {@code target/quarkus-generated-doc/config}, and this test puts them under one heading each. Three ways to drift,
 * three failures: the committed file is older than the models; a key Padlock reads ({@link ConfigKeys}) is missing
 * from the reference, or the reference names one it does not read; a key table of the README or a guide (a table
 * whose first column is headed "key") names a key the reference does not have.
 */
class ConfigReferenceTest {

    /** Set to {@code true} to write {@code docs/reference/configuration.md} instead of comparing it. */
    static final String UPDATE = "padlock.update-config-doc";

    static final String REGENERATE = "./mvnw -B -pl docs -am test -Dtest=ConfigReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE + "=true";

    private static final Path REFERENCE = Path.of("reference", "configuration.md");
    private static final Path ROOT = Path.of("..");
    private static final Path README = ROOT.resolve("README.md");
    private static final Path GENERATED = Path.of("target", "quarkus-generated-doc", "config");
    private static final Path PADLOCK_FRAGMENT = GENERATED.resolve("padlock-docs_padlock.md");
    private static final Path QUARKUS_FRAGMENT = GENERATED.resolve("padlock-quarkus_quarkus.padlock.md");

    /** A property line of the plugin's Markdown: {@code `padlock.x`}, or {@code 🔒 `quarkus.padlock.x`}. */
    private static final Pattern REFERENCE_KEY =
            Pattern.compile("^(?:🔒 )?`((?:quarkus\\.)?padlock\\.[^`]+)`$", Pattern.MULTILINE);

    /** A key in the first column of a README table row: {@code | `padlock.x` ...}. */
    private static final Pattern TABLE_KEY =
            Pattern.compile("^\\| `((?:quarkus\\.)?padlock\\.[^`]+)`", Pattern.MULTILINE);

    /** Before any test reads the file, so the other checks see the regenerated one too. */
    @BeforeAll
    static void regenerateWhenAsked() throws IOException {
        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(REFERENCE, reference(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void committedReferenceIsCurrent() throws IOException {
        String expected = reference();
        List<String> committed =
                Files.exists(REFERENCE) ? Files.readAllLines(REFERENCE, StandardCharsets.UTF_8) : List.of();
        List<String> generated = expected.lines().toList();
        int line = 0;
        while (line < committed.size()
                && line < generated.size()
                && committed.get(line).equals(generated.get(line))) {
            line++;
        }
        assertThat(line == committed.size() && line == generated.size())
                .as(
                        "docs/reference/configuration.md is not what the configuration models generate (first difference at line"
                                + " %d: committed %s, generated %s). Regenerate it with%n  %s%nand commit it",
                        line + 1,
                        line < committed.size() ? "'" + committed.get(line) + "'" : "nothing",
                        line < generated.size() ? "'" + generated.get(line) + "'" : "nothing",
                        REGENERATE)
                .isTrue();
    }

    @Test
    void referenceNamesEveryKeyPadlockReadsAndNoOther() throws Exception {
        Set<String> referenced = new TreeSet<>();
        for (String key : referenceKeys(Files.readString(REFERENCE, StandardCharsets.UTF_8))) {
            if (key.startsWith("padlock.")) {
                referenced.add(key);
            }
        }
        assertThat(referenced)
                .as(
                        "padlock.* keys in docs/reference/configuration.md (from the interfaces in docs) against ConfigKeys")
                .containsExactlyInAnyOrderElementsOf(padlockKeys());
    }

    @Test
    void keyTablesNameOnlyKeysOfTheReference() throws IOException {
        Set<String> reference = referenceKeys(Files.readString(REFERENCE, StandardCharsets.UTF_8));
        List<String> unknown = new java.util.ArrayList<>();
        for (Markdown page : Markdown.pagesUnder(ROOT.toAbsolutePath().normalize())) {
            for (String key : tableKeys(String.join("\n", page.lines()))) {
                if (!reference.contains(key)) {
                    unknown.add(page.file().getFileName() + ": " + key);
                }
            }
        }
        assertThat(unknown)
                .as("keys in the key tables of the README and the guides that docs/reference/configuration.md lacks")
                .isEmpty();
    }

    @Test
    void readmeLinksTheReference() throws IOException {
        assertThat(Files.readString(README, StandardCharsets.UTF_8))
                .as("the README links the configuration reference, where every key is explained")
                .contains("(docs/reference/configuration.md)");
    }

    /** The committed file: a fixed head, then each generated fragment under its heading. */
    private static String reference() throws IOException {
        return """
                <!-- Generated from the interfaces in docs/src/main/java/dev/padlock/docs (padlock.*) and
                     quarkus-deployment/src/main/java/dev/padlock/quarkus/deployment/PadlockBuildTimeConfig.java
                     (quarkus.padlock.*) by the Quarkus config-doc plugin. Do not edit: change the Javadoc there, then
                     run %s -->

                # Padlock configuration reference

                Every key Padlock reads; `ConfigReferenceTest` keeps this page and the keys the code reads in step.

                ## How the keys combine

                - Per-lock keys (`padlock.locks."<name>".*`) beat the annotation (or the `Locks` call), which beats the
                  global keys, which beat the defaults. The quotes around `<name>` may be left out when the name has no
                  dots.
                - Durations use the annotation's syntax (`0`, `250ms`, `5s`, `2m`, `1h`, `1d`, ISO `PT5S`) and are refused
                  at deployment above 10 years (`3650d`); a fixed lease needs at least `1ms` (Redis keeps whole
                  milliseconds, and a lease rounded to 0 would silently mean the watchdog).
                - **Your own `RedissonClient`.** When the application provides a `RedissonClient` bean, Padlock locks
                  through it and creates none: `padlock.redis.*` and `padlock.watchdog-timeout` then do not apply
                  (watchdog-mode locks take that client's `lockWatchdogTimeout`, and its own `checkLockSyncedSlaves` and
                  `slavesSyncTimeout` decide replica confirmation). At start-up one INFO line names those of them that
                  are set, never their values.
                - On Quarkus, when no `padlock.redis.*` key is set, `quarkus.redis.hosts` or a Dev Service gives the
                  address ([Dev Services](../guides/dev-services.md)).

                ## `padlock.*`: every runtime

                MicroProfile Config, the same keys on Payara, Weld and Quarkus (`META-INF/microprofile-config.properties`,
                `application.properties`, system properties, environment variables). Per-lock keys beat the annotation,
                which beats the global keys, which beat the defaults. `name` is a lock name; quote it when it contains
                dots (`padlock.locks."com.acme.Inventory#reserve".type`).

                %s
                ## `quarkus.padlock.*`: Quarkus, build time

                %s"""
                .formatted(REGENERATE, fragment(PADLOCK_FRAGMENT), fragment(QUARKUS_FRAGMENT));
    }

    private static String fragment(Path file) throws IOException {
        assertThat(file)
                .as("the config-doc plugin's output (it runs in process-classes and reads the target folders of this"
                        + " module and quarkus-deployment: build with -am)")
                .exists();
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** Map keys written as the README writes them: {@code locks."<name>"}, {@code container-env.<NAME>}. */
    private static Set<String> referenceKeys(String reference) {
        Set<String> keys = new TreeSet<>();
        Matcher key = REFERENCE_KEY.matcher(reference);
        while (key.find()) {
            keys.add(key.group(1)
                    .replace("padlock.locks.\"name\".", "padlock.locks.\"<name>\".")
                    .replaceAll("\\.\"[^\"<]+\"$", ".<NAME>"));
        }
        return keys;
    }

    private static Set<String> tableKeys(String readme) {
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

    /**
     * The {@code padlock.*} constants of {@link ConfigKeys}, and its per-lock properties (its other {@code String}
     * constants, such as {@code TYPE = "type"}) under {@code padlock.locks."<name>".}: a new constant of either kind
     * needs its entry in the reference.
     */
    private static Set<String> padlockKeys() throws IllegalAccessException {
        Set<String> keys = new TreeSet<>();
        for (Field field : ConfigKeys.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.get(null) instanceof String value) {
                keys.add(value.startsWith("padlock.") ? value : ConfigKeys.perLock("<name>", value));
            }
        }
        return keys;
    }
}
