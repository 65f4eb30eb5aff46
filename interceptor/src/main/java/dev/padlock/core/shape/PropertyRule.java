package dev.padlock.core.shape;

import java.util.List;

/**
 * How a template segment such as {@code id} in <code>{order.id}</code> finds its value, written once for every
 * {@link TypeShape} implementation: the first of these that exists and takes no argument wins.
 */
public final class PropertyRule {

    private PropertyRule() {}

    /** Getter names to look for, in order; then a record component, then a public field. */
    public static List<String> getterNames(String property) {
        String cap = Character.toUpperCase(property.charAt(0)) + property.substring(1);
        return List.of("get" + cap, "is" + cap);
    }

    /** The explanation used when nothing matches. */
    public static String describeMissing(TypeShape owner, String property) {
        String cap = Character.toUpperCase(property.charAt(0)) + property.substring(1);
        return owner.name() + " has no public getter get" + cap + "()/is" + cap
                + "(), record component or public field '" + property + "'";
    }
}
