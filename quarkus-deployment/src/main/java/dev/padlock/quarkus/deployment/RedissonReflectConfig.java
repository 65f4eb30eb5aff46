package dev.padlock.quarkus.deployment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Redisson's own native-image reflection configuration ({@value #RESOURCE} in its jar), read so that Padlock can hand
 * native-image the entries the application can link and leave out the rest.
 *
 * <p>Redisson registers every codec it ships, among them {@code JsonJacksonCodec}, whose constructors take Jackson's
 * {@code ObjectMapper}; Redisson 4 no longer depends on Jackson, so in an application without {@code
 * jackson-databind} native-image stops at that entry ("Class initialization of org.redisson.codec.JsonJacksonCodec
 * failed ... NoClassDefFoundError: com/fasterxml/jackson/databind/jsontype/TypeResolverBuilder"). The fix belongs in
 * Redisson (a conditional entry); until then Padlock excludes the file and registers what links.
 */
final class RedissonReflectConfig {

    /** Where Redisson's jar keeps it (no leading slash: a class-path resource name). */
    static final String RESOURCE = "META-INF/native-image/org.redisson/redisson/reflect-config.json";

    /** Redisson's jar in the native-image class path, as native-image's {@code --exclude-config} matches it. */
    static final String JAR_PATTERN = "org\\.redisson\\.redisson-\\d[^/]*\\.jar";

    /** {@link #RESOURCE} as native-image's {@code --exclude-config} matches it. */
    static final String RESOURCE_PATTERN = "/META-INF/native-image/org\\.redisson/redisson/reflect-config\\.json";

    /** One entry: a class and what of it is registered. */
    record Entry(
            String className,
            boolean constructors,
            boolean methods,
            boolean fields,
            List<String> fieldNames,
            List<MethodName> methodNames) {}

    /** A method (or {@code <init>}) named with its parameter types. */
    record MethodName(String name, List<String> parameterTypes) {}

    private RedissonReflectConfig() {}

    /** The entries of {@link #RESOURCE} as {@code loader} sees it; empty when Redisson ships none. */
    static List<Entry> read(ClassLoader loader) {
        URL url = loader.getResource(RESOURCE);
        if (url == null) {
            return List.of();
        }
        try (InputStream in = url.openStream()) {
            // JSON is YAML; Redisson's own dependency reads it, so the build needs no JSON library of its own.
            Object parsed = new Yaml(new LoaderOptions()).load(in);
            return parse(parsed, url);
        } catch (IOException e) {
            throw new UncheckedIOException("Padlock cannot read Redisson's " + url, e);
        }
    }

    static List<Entry> parse(Object parsed, Object source) {
        if (!(parsed instanceof List<?> entries)) {
            throw new IllegalStateException("Padlock cannot read Redisson's " + source
                    + ": expected a JSON array of classes; a Redisson upgrade may have changed its format");
        }
        List<Entry> result = new ArrayList<>();
        for (Object item : entries) {
            Map<?, ?> entry = (Map<?, ?>) item;
            result.add(new Entry(
                    Objects.requireNonNull((String) entry.get("name"), "an entry without a name in " + source),
                    flag(entry, "allDeclaredConstructors") || flag(entry, "allPublicConstructors"),
                    // native-image's allPublicMethods also reaches inherited public methods; Redisson lists its API
                    // interfaces one by one, so their declared methods cover the same ground.
                    flag(entry, "allDeclaredMethods") || flag(entry, "allPublicMethods"),
                    flag(entry, "allDeclaredFields") || flag(entry, "allPublicFields"),
                    names(entry.get("fields")),
                    methods(entry.get("methods"))));
        }
        return result;
    }

    /**
     * Why native-image could not link the entry against {@code loader} (the application's run-time class path), or
     * null when it can: its class, and the signatures of the members it registers, must all resolve.
     */
    static String unlinkable(Entry entry, ClassLoader loader) {
        try {
            Class<?> type = Class.forName(entry.className(), false, loader);
            if (entry.constructors()) {
                type.getDeclaredConstructors();
            }
            if (entry.methods() || !entry.methodNames().isEmpty()) {
                type.getDeclaredMethods();
                type.getDeclaredConstructors();
            }
            if (entry.fields() || !entry.fieldNames().isEmpty()) {
                type.getDeclaredFields();
            }
            return null;
        } catch (ClassNotFoundException | LinkageError | TypeNotPresentException e) {
            return e.toString();
        }
    }

    private static boolean flag(Map<?, ?> entry, String name) {
        return Boolean.TRUE.equals(entry.get(name));
    }

    private static List<String> names(Object list) {
        List<String> names = new ArrayList<>();
        if (list instanceof List<?> items) {
            for (Object item : items) {
                names.add((String) ((Map<?, ?>) item).get("name"));
            }
        }
        return names;
    }

    private static List<MethodName> methods(Object list) {
        List<MethodName> methods = new ArrayList<>();
        if (list instanceof List<?> items) {
            for (Object item : items) {
                Map<?, ?> method = (Map<?, ?>) item;
                List<String> parameters = new ArrayList<>();
                if (method.get("parameterTypes") instanceof List<?> types) {
                    types.forEach(t -> parameters.add((String) t));
                }
                methods.add(new MethodName((String) method.get("name"), parameters));
            }
        }
        return methods;
    }
}
