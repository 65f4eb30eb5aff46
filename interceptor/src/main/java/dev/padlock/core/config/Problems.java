package dev.padlock.core.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The problems one deployment found, each worded in one shape: {@code Invalid <subject>: <reason>. <fix>.}
 * Rules never concatenate that text themselves, so every runtime reports the same words, and all problems are
 * collected before any is raised: a developer fixes them in one pass rather than one per deployment.
 *
 * <p>A reason is a lower-case clause without a final full stop, saying what is wrong with the value; a fix is an
 * imperative sentence, also without its full stop. Values that may hold a secret are masked before they get here.
 */
public final class Problems {

    private final List<String> messages = new ArrayList<>();

    /** {@code Invalid @Locked.<member> on <method>: <reason>. <fix>.} */
    public void invalidMember(String method, String member, String reason, String fix) {
        invalid(member(method, member), reason, fix);
    }

    /** {@code Invalid @Locked on <method>: <reason>. <fix>.}: about the method, not one member. */
    public void invalidMethod(String method, String reason, String fix) {
        invalid("@Locked on " + method, reason, fix);
    }

    /** {@code Invalid <key> (lock of <method>): <reason>. <fix>.}: a per-lock key, named with its method. */
    public void invalidLockKey(String key, String method, String reason, String fix) {
        invalid(lockKey(key, method), reason, fix);
    }

    /** {@code Invalid <key>: <reason>. <fix>.}; without a fix when the reason already says what to write. */
    public void invalidKey(String key, String reason, String fix) {
        invalid(key, reason, fix);
    }

    /** {@code Missing <key>: <reason>. <fix>.} */
    public void missingKey(String key, String reason, String fix) {
        messages.add(text("Missing " + key, reason, fix));
    }

    /**
     * {@code Invalid <subject>: <reason>. <fix>.}, for subjects the other methods do not name, such as an injection
     * point; {@code fix} may be {@code null}.
     */
    public void invalid(String subject, String reason, String fix) {
        messages.add(text("Invalid " + subject, reason, fix));
    }

    /** How messages name an annotation member of a method, for {@link #invalid}. */
    public static String member(String method, String member) {
        return "@Locked." + member + " on " + method;
    }

    /** How messages name a per-lock key of a method, for {@link #invalid}. */
    public static String lockKey(String key, String method) {
        return key + " (lock of " + method + ")";
    }

    /**
     * The text of one problem, for a problem that travels as an exception before it is collected (a Redisson
     * file that cannot be loaded).
     */
    public static String text(String subject, String reason, String fix) {
        return subject + ": " + reason + (fix == null ? "." : ". " + fix + ".");
    }

    /** Problems a check collected on its own (a validator's result), in their order. */
    public void addAll(Collection<String> found) {
        messages.addAll(found);
    }

    public boolean isEmpty() {
        return messages.isEmpty();
    }

    public int size() {
        return messages.size();
    }

    /** The messages so far, in the order found. */
    public List<String> list() {
        return List.copyOf(messages);
    }

    /**
     * All problems as one text for one error: {@code <header> N problem(s):} and one line per problem, e.g.
     * {@code summary("Padlock found")}.
     */
    public String summary(String header) {
        return header + " " + messages.size() + " problem(s):\n - " + String.join("\n - ", messages);
    }

    @Override
    public String toString() {
        return messages.isEmpty() ? "no problems" : summary("Padlock found");
    }
}
