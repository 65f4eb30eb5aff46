package dev.padlock.core.key;

import dev.padlock.LockException;
import dev.padlock.core.shape.ReflectedShapes;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns the arguments of one call into the Redis keys of its locks. Built once per method; property paths
 * are resolved to method handles here so a call only invokes them.
 */
public final class KeyRenderer {

    /** Rendered key parts longer than this are shortened to a prefix and a hash, so keys stay bounded. */
    static final int MAX_KEY_PART = 256;

    private static final int KEPT_PREFIX = 64;
    private static final MethodType ACCESSOR = MethodType.methodType(Object.class, Object.class);

    private final String method;
    private final String base;
    private final Template[] templates;

    private KeyRenderer(String method, String base, Template[] templates) {
        this.method = method;
        this.base = base;
        this.templates = templates;
    }

    /**
     * @param method the method as messages name it
     * @param keyBase the Redis key of the lock without its key part: prefix plus name
     * @param keys the key templates, bound to parameter positions of {@code javaMethod}; empty for one key per method
     */
    public static KeyRenderer of(String method, String keyBase, List<BoundTemplate> keys, Method javaMethod) {
        return of(method, keyBase, keys, javaMethod.getParameterTypes());
    }

    /**
     * @param parameterTypes the declared types of the arguments a call passes to {@link #render}; property paths of
     *     the templates are resolved against them
     */
    public static KeyRenderer of(String method, String keyBase, List<BoundTemplate> keys, Class<?>[] parameterTypes) {
        List<Template> templates = new ArrayList<>();
        for (BoundTemplate bound : keys) {
            templates.add(Template.of(bound, parameterTypes));
        }
        return new KeyRenderer(method, keyBase, templates.toArray(new Template[0]));
    }

    /** The distinct keys of a call, sorted so that every caller takes them in the same order. */
    public String[] render(Object[] args) {
        if (templates.length == 0) {
            return new String[] {base};
        }
        if (templates.length == 1) {
            return new String[] {key(templates[0], args)};
        }
        String[] keys = new String[templates.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = key(templates[i], args);
        }
        Arrays.sort(keys);
        int distinct = 1;
        for (int i = 1; i < keys.length; i++) {
            if (!keys[i].equals(keys[distinct - 1])) {
                keys[distinct++] = keys[i];
            }
        }
        return distinct == keys.length ? keys : Arrays.copyOf(keys, distinct);
    }

    /** Renders straight after the base and separator into one builder: one string per key and call. */
    private String key(Template template, Object[] args) {
        int start = base.length() + 1;
        StringBuilder key = new StringBuilder(start + 24).append(base).append(':');
        template.render(key, args, method);
        if (key.length() - start > MAX_KEY_PART) {
            String part = key.substring(start);
            key.setLength(start);
            key.append(shorten(part));
        }
        return key.toString();
    }

    /**
     * The Redis key a {@code {0}} template renders for {@code value}: {@code <keyBase>:<escaped value>}, shortened as
     * every rendered key is. For tools that must name the key a lock of the application takes (a test holding it as
     * another owner would).
     */
    public static String redisKey(String keyBase, Object value) {
        StringBuilder key = new StringBuilder(keyBase).append(':');
        int start = key.length();
        appendEscaped(key, String.valueOf(value));
        if (key.length() - start > MAX_KEY_PART) {
            String part = key.substring(start);
            key.setLength(start);
            key.append(shorten(part));
        }
        return key.toString();
    }

    static String shorten(String part) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(part.getBytes(StandardCharsets.UTF_8));
            return part.substring(0, KEPT_PREFIX) + "~sha256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }

    /**
     * Escapes a user value so that '{' and '}' never reach the key: in Redis Cluster they would form a hash
     * tag and send Redisson's side keys of the lock to another slot. Injective, so distinct values keep
     * distinct keys.
     */
    static void appendEscaped(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '{' -> out.append("%7B");
                case '}' -> out.append("%7D");
                case '%' -> out.append("%25");
                default -> out.append(c);
            }
        }
    }

    /** One template with its placeholders resolved to argument positions and accessors. */
    private record Template(String source, Object[] parts) {

        static Template of(BoundTemplate bound, Class<?>[] parameterTypes) {
            List<Object> parts = new ArrayList<>();
            int placeholder = 0;
            for (KeyTemplate.Part part : bound.template().parts()) {
                if (part instanceof KeyTemplate.Literal literal) {
                    parts.add(literal.text());
                } else {
                    KeyTemplate.Placeholder p = (KeyTemplate.Placeholder) part;
                    int index = bound.parameterIndexes().get(placeholder++);
                    parts.add(Path.of(p, index, parameterTypes[index]));
                }
            }
            return new Template(bound.template().source(), parts.toArray());
        }

        void render(StringBuilder out, Object[] args, String method) {
            for (Object part : parts) {
                if (part instanceof Path path) {
                    appendEscaped(out, path.value(args, source, method));
                } else {
                    // Literal text of the template is the developer's own, checked at deployment.
                    appendEscaped(out, (String) part);
                }
            }
        }
    }

    /** <code>{root.a.b}</code>: an argument position and the accessors that follow it. */
    private record Path(KeyTemplate.Placeholder placeholder, int index, MethodHandle[] accessors, String[] names) {

        static Path of(KeyTemplate.Placeholder p, int index, Class<?> parameterType) {
            MethodHandle[] accessors = new MethodHandle[p.path().size()];
            ReflectedShapes.ReflectedType current = ReflectedShapes.of(parameterType);
            for (int i = 0; i < accessors.length; i++) {
                String property = p.path().get(i);
                current = current.property(property)
                        .orElseThrow(() -> new IllegalStateException(
                                p.text() + " no longer resolves; the class changed since deployment"));
                accessors[i] = handle(current.via());
            }
            return new Path(p, index, accessors, p.path().toArray(new String[0]));
        }

        private static MethodHandle handle(Member member) {
            try {
                ((AccessibleObject) member).setAccessible(true);
                MethodHandle h = member instanceof Method m
                        ? MethodHandles.lookup().unreflect(m)
                        : MethodHandles.lookup().unreflectGetter((Field) member);
                return h.asType(ACCESSOR);
            } catch (IllegalAccessException | RuntimeException e) {
                throw new IllegalStateException("Padlock cannot read " + member + " for a key template", e);
            }
        }

        String value(Object[] args, String template, String method) {
            Object value = args[index];
            for (int i = 0; i < accessors.length; i++) {
                if (value == null) {
                    throw nullAlongPath(template, method, reached(i));
                }
                try {
                    value = accessors[i].invokeExact(value);
                } catch (Throwable e) {
                    throw new LockException(
                            "Key template '" + template + "' of " + method + " failed reading " + reached(i + 1)
                                    + "; the method did not run",
                            e);
                }
            }
            if (value == null) {
                throw nullAlongPath(template, method, reached(accessors.length));
            }
            return value.toString();
        }

        /** The path up to its {@code steps}-th property, for messages: built only when one is needed. */
        private String reached(int steps) {
            StringBuilder path = new StringBuilder(placeholder.root());
            for (int i = 0; i < steps; i++) {
                path.append('.').append(names[i]);
            }
            return path.toString();
        }

        private static LockException nullAlongPath(String template, String method, String reached) {
            return new LockException("Key template '" + template + "' of " + method + " cannot be rendered: "
                    + reached + " is null, so no lock was taken and the method did not run. Pass a non-null "
                    + reached + ", or lock on a path that is never null");
        }
    }
}
