package dev.padlock.core.client;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The texts no message may show, and how to strike them out: a configured password, and the password in an address's
 * user info ({@code redis://user:password@host}). Written once for every place that quotes an address or what Redis
 * or a parser said about one: Padlock's connection settings and their problems, {@link ConnectionFailure}, and
 * Padlock's test kit (hence public). Immutable.
 */
public final class Secrets {

    /** Nothing to strike out but user info written in a text. */
    public static final Secrets NONE = new Secrets(List.of());

    /** User info in an address ({@code redis://user:password@host}), wherever it appears in a text. */
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]*@");

    /** Longest first, so that a secret inside another is struck out after it. */
    private final List<String> texts;

    private Secrets(List<String> texts) {
        this.texts = texts;
    }

    /**
     * The password (may be {@code null}) and the password of each address, with the pieces of an address's password
     * between the characters that end a part of a URI: a parser that misreads the address (a {@code /} in the password
     * ends its authority there) may quote such a piece alone. A short piece may strike letters out of a word that only
     * looks like it: such a message reads worse, and still shows no part of the password.
     */
    public static Secrets of(String password, Collection<String> addresses) {
        Set<String> texts = new LinkedHashSet<>();
        if (password != null && !password.isEmpty()) {
            texts.add(password);
        }
        for (String address : addresses) {
            passwordOf(address).ifPresent(secret -> {
                texts.add(secret);
                for (String piece : secret.split("[/?#@:]")) {
                    if (!piece.isEmpty()) {
                        texts.add(piece);
                    }
                }
            });
        }
        return new Secrets(texts.stream()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList());
    }

    /** The secrets of one address, e.g. {@code redis://user:password@host:port}. */
    public static Secrets ofAddress(String address) {
        return of(null, List.of(address));
    }

    /** {@code text} with every secret, and any user info of an address in it, replaced by {@code ***}. */
    public String strikeOut(String text) {
        String struck = text;
        for (String secret : texts) {
            struck = struck.replace(secret, "***");
        }
        return USER_INFO.matcher(struck).replaceAll("***@");
    }

    /**
     * An address with any user info replaced by {@code ***}, also when the scheme is missing ({@code user:pw@host:6379}
     * is a typo the settings' problems exist to report). Cut at the last {@code @}, as a password may hold {@code @} or
     * {@code /}.
     */
    public static String maskedAddress(String address) {
        int at = address.lastIndexOf('@');
        int start = userInfoStart(address);
        return at >= start ? address.substring(0, start) + "***@" + address.substring(at + 1) : address;
    }

    /** The password in an address's user info, up to its last {@code @}; empty when there is none. */
    private static Optional<String> passwordOf(String address) {
        int at = address.lastIndexOf('@');
        int start = userInfoStart(address);
        if (at <= start) {
            return Optional.empty();
        }
        String userInfo = address.substring(start, at);
        // user:password, or a lone password (redis://secret@host is taken as one)
        String secret = userInfo.substring(userInfo.indexOf(':') + 1);
        return secret.isEmpty() ? Optional.empty() : Optional.of(secret);
    }

    private static int userInfoStart(String address) {
        int scheme = address.indexOf("://");
        return scheme >= 0 ? scheme + 3 : 0;
    }
}
