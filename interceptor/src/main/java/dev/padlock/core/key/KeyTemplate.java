package dev.padlock.core.key;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed key template such as <code>"eu-{order.customer.id}"</code>: literal text and placeholders. Parsing is
 * pure; binding placeholders to parameters happens at deployment ({@link KeyBinder}).
 */
public record KeyTemplate(String source, List<Part> parts) {

    /** One piece of a template. */
    public sealed interface Part permits Literal, Placeholder {}

    public record Literal(String text) implements Part {}

    /**
     * <code>{root.p1.p2}</code>: {@code root} is a parameter name or a position; {@code path} the properties
     * followed from it.
     */
    public record Placeholder(String root, List<String> path) implements Part {
        public boolean isPositional() {
            return Character.isDigit(root.charAt(0));
        }

        public String text() {
            return "{" + String.join(".", expression()) + "}";
        }

        public List<String> expression() {
            List<String> all = new ArrayList<>();
            all.add(root);
            all.addAll(path);
            return all;
        }
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with the template (the caller says where it is)
     */
    public static KeyTemplate parse(String template) {
        if (template.isBlank()) {
            throw new IllegalArgumentException("the key template is empty");
        }
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '}') {
                throw new IllegalArgumentException("'" + template + "' has a '}' without its '{' at position " + i);
            }
            if (c != '{') {
                literal.append(c);
                i++;
                continue;
            }
            int close = template.indexOf('}', i + 1);
            int nested = template.indexOf('{', i + 1);
            if (close < 0 || (nested >= 0 && nested < close)) {
                throw new IllegalArgumentException("'" + template + "' has a '{' without its '}' at position " + i);
            }
            if (literal.length() > 0) {
                parts.add(new Literal(literal.toString()));
                literal.setLength(0);
            }
            parts.add(placeholder(template, template.substring(i + 1, close)));
            i = close + 1;
        }
        if (literal.length() > 0) {
            parts.add(new Literal(literal.toString()));
        }
        return new KeyTemplate(template, List.copyOf(parts));
    }

    private static Placeholder placeholder(String template, String expression) {
        String[] segments = expression.split("\\.", -1);
        for (String segment : segments) {
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("'" + template + "' has an empty name in {" + expression + "}");
            }
        }
        String root = segments[0].trim();
        if (Character.isDigit(root.charAt(0))) {
            for (char ch : root.toCharArray()) {
                if (!Character.isDigit(ch)) {
                    throw new IllegalArgumentException("'" + template + "' has {" + expression
                            + "}: a position must be a number such as {0}, a name must start with a letter");
                }
            }
        }
        List<String> path = new ArrayList<>();
        for (int s = 1; s < segments.length; s++) {
            String segment = segments[s].trim();
            if (!Character.isJavaIdentifierStart(segment.charAt(0))) {
                throw new IllegalArgumentException(
                        "'" + template + "' has {" + expression + "}: '" + segment + "' is not a property name");
            }
            path.add(segment);
        }
        return new Placeholder(root, List.copyOf(path));
    }

    public List<Placeholder> placeholders() {
        List<Placeholder> result = new ArrayList<>();
        for (Part p : parts) {
            if (p instanceof Placeholder ph) {
                result.add(ph);
            }
        }
        return result;
    }
}
