package dev.padlock.core.client;

import java.security.cert.CertificateException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

/** How {@link ConnectionFailure} reads what Redisson threw: the links of its cause chain, and what each says. */
final class CauseChain {

    /**
     * What Redisson appends to a Redis error reply ({@code WRONGPASS ... disabled.. channel: [id: ...] data: ...}),
     * and the reply's own closing period, which the reason's parentheses replace.
     */
    private static final Pattern REDISSON_SUFFIX = Pattern.compile("\\.*( channel: .*)?$", Pattern.DOTALL);

    /** Links looked at; Redisson's chains are three or four long, and a loop is not followed for ever. */
    private static final int MAX_LINKS = 20;

    private CauseChain() {}

    /** {@code failure} and its causes, outermost first. */
    static List<Throwable> links(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t) && chain.size() < MAX_LINKS; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** The message of a Redis error reply as Redisson wraps it, or "" for other exceptions. */
    static String reply(Throwable t) {
        if (t instanceof CompletionException || t instanceof ExecutionException) {
            return ""; // their message repeats the cause's, which comes next in the chain
        }
        String message = t.getMessage();
        return message == null
                ? ""
                : REDISSON_SUFFIX.matcher(message).replaceFirst("").trim();
    }

    /** A certificate problem: PKIX path, validity, host name. */
    static boolean certificateProblem(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
        return t instanceof CertificateException
                || message.contains("pkix")
                || message.contains("certificate")
                || message.contains("subject alternative");
    }
}
