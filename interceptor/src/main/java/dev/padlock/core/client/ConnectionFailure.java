package dev.padlock.core.client;

import static dev.padlock.core.config.ConfigKeys.REDIS_CONFIG_FILE;
import static dev.padlock.core.config.ConfigKeys.REDIS_PASSWORD;
import static dev.padlock.core.config.ConfigKeys.REDIS_USERNAME;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.redisson.client.RedisAuthRequiredException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisWrongPasswordException;

/**
 * Why a connection to Redis failed, in words a user can act on: the root cause Redis or the network gave, and the
 * configuration keys to check. Written once, for every place that reports it: the start-up log line, the exception
 * of a locked call that could not connect, and the readiness check, on every runtime.
 *
 * <p>Redisson wraps the cause three or four levels deep under "Unable to connect to Redis server: host:port", which
 * says nothing about why; the cause is found by walking the chain (measured with Redisson 4.7.0 against
 * redis-server 7.0, see {@link Cause}). Text quoted from an exception never holds a password ({@link Secrets}).
 */
public final class ConnectionFailure {

    /** What went wrong, and so what to check. */
    public enum Cause {
        /**
         * {@code WRONGPASS}: a wrong password, an unknown ACL user, or a disabled one (Redis tells them apart for
         * nobody). Redisson: {@code RedisWrongPasswordException} on {@code AUTH}.
         */
        WRONG_CREDENTIALS,
        /** {@code NOAUTH}: Redis requires a password and none was sent. Redisson: {@code RedisAuthRequiredException}. */
        NO_CREDENTIALS,
        /** A password was sent to a Redis whose default user has none ({@code ERR AUTH <password> called without}). */
        UNEXPECTED_PASSWORD,
        /**
         * The TLS handshake got no answer: {@code rediss://} to a port that does not speak TLS (netty's
         * {@code SslHandshakeTimeoutException}).
         */
        TLS_NOT_ANSWERED,
        /** The server's TLS certificate was not accepted: not trusted, or not for this host name. */
        TLS_UNTRUSTED,
        /** Any other TLS failure. */
        TLS,
        /** Nothing accepts connections at the address ({@code ConnectException: Connection refused}). */
        REFUSED,
        /** The host name does not resolve. */
        UNKNOWN_HOST,
        /**
         * Connected, but no answer in time ({@code RedisTimeoutException} on the first {@code PING}): a port that
         * drops packets, an overloaded server, or a TLS port addressed with {@code redis://}.
         */
        TIMEOUT,
        /**
         * Something answered that does not speak Redis's protocol (Redisson: {@code Can't decode replay: HTTP/1.1 400
         * ...}): the address names another service's port.
         */
        NOT_REDIS,
        /** None of the above: the innermost exception is quoted. */
        OTHER
    }

    /**
     * What Redisson appends to a Redis error reply ({@code WRONGPASS ... disabled.. channel: [id: ...] data: ...}),
     * and the reply's own closing period, which the reason's parentheses replace.
     */
    private static final Pattern REDISSON_SUFFIX = Pattern.compile("\\.*( channel: .*)?$", Pattern.DOTALL);

    private static final int MAX_QUOTE = 300;

    private final Cause cause;
    private final String reason;
    private final String fix;

    private ConnectionFailure(Cause cause, String reason, String fix) {
        this.cause = cause;
        this.reason = reason;
        this.fix = fix;
    }

    /**
     * @param failure what Redisson threw, at any depth of wrapping
     * @param settings Padlock's connection settings, which name the keys to check; {@code null} for the
     *     application's own client, whose configuration Padlock does not know
     */
    public static ConnectionFailure of(Throwable failure, RedisConnectionSettings settings) {
        Keys keys = new Keys(settings);
        List<Throwable> chain = chain(failure);
        Throwable innermost = chain.get(chain.size() - 1);
        for (Throwable t : chain) {
            String reply = redisReply(t);
            if (t instanceof RedisWrongPasswordException
                    || reply.startsWith("WRONGPASS")
                    || reply.startsWith("ERR invalid password")) {
                return new ConnectionFailure(
                        Cause.WRONG_CREDENTIALS,
                        "Redis refused the username or password (" + keys.quote(reply) + ")",
                        keys.wrongCredentials());
            }
            if (t instanceof RedisAuthRequiredException || reply.startsWith("NOAUTH")) {
                return new ConnectionFailure(
                        Cause.NO_CREDENTIALS,
                        "Redis requires a password, and none was sent (" + keys.quote(reply) + ")",
                        keys.noCredentials());
            }
            if (reply.startsWith("ERR")
                    && (reply.contains("called without any password configured")
                            || reply.contains("no password is set"))) {
                return new ConnectionFailure(
                        Cause.UNEXPECTED_PASSWORD,
                        "a password was sent, but the Redis server has none for its default user (" + keys.quote(reply)
                                + ")",
                        keys.unexpectedPassword());
            }
        }
        for (Throwable t : chain) {
            if (t instanceof SSLHandshakeException
                    && t.getClass().getSimpleName().equals("SslHandshakeTimeoutException")) {
                // netty's; matched by name so that the engine needs no compile-time dependency on netty.
                return new ConnectionFailure(
                        Cause.TLS_NOT_ANSWERED,
                        "the TLS handshake got no answer (" + keys.quote(t) + "): the port does not seem to speak TLS",
                        keys.tlsNotAnswered());
            }
            if (t instanceof SSLException) {
                return untrusted(chain)
                        ? new ConnectionFailure(
                                Cause.TLS_UNTRUSTED,
                                "the TLS handshake failed: the server's certificate was not accepted (" + keys.quote(t)
                                        + ")",
                                keys.tlsUntrusted())
                        : new ConnectionFailure(
                                Cause.TLS, "the TLS handshake failed (" + keys.quote(t) + ")", keys.tls());
            }
        }
        for (Throwable t : chain) {
            if (t instanceof UnknownHostException) {
                return new ConnectionFailure(
                        Cause.UNKNOWN_HOST,
                        "the host name does not resolve (" + keys.quote(t) + ")",
                        keys.unknownHost());
            }
            // netty's ConnectTimeoutException is a ConnectException: the timeout test comes first.
            if (t instanceof RedisTimeoutException
                    || t instanceof TimeoutException
                    || t instanceof SocketTimeoutException
                    || t.getClass().getSimpleName().equals("ConnectTimeoutException")) {
                return new ConnectionFailure(
                        Cause.TIMEOUT, "Redis did not answer in time (" + keys.quote(t) + ")", keys.timeout());
            }
            if (redisReply(t).startsWith("Can't decode replay")) {
                return new ConnectionFailure(
                        Cause.NOT_REDIS,
                        "something that does not speak Redis's protocol answers there (" + keys.quote(t) + ")",
                        keys.notRedis());
            }
            if (t instanceof ConnectException) {
                return new ConnectionFailure(
                        Cause.REFUSED, "nothing accepts connections there (" + keys.quote(t) + ")", keys.refused());
            }
        }
        return new ConnectionFailure(Cause.OTHER, keys.quoteWithType(innermost), keys.other());
    }

    /**
     * The reason for a locked call that got no connection: {@code no connection to Redis could be made}, followed by
     * the cause and the fix when {@code failure} comes from Padlock's own client.
     */
    public static String noConnection(Throwable failure) {
        for (Throwable t : chain(failure)) {
            if (t instanceof ConnectionFailedException failed) {
                return "no connection to Redis could be made: "
                        + failed.failure().summary();
            }
        }
        return "no connection to Redis could be made";
    }

    public Cause cause() {
        return cause;
    }

    /** What went wrong, with Redis's or the network's own words in parentheses; never a password. */
    public String reason() {
        return reason;
    }

    /** What to check or change, naming the configuration keys. */
    public String fix() {
        return fix;
    }

    /** {@link #reason()} and {@link #fix()}, as one text. */
    public String summary() {
        return reason + ". " + fix + ".";
    }

    /** The full message: where Padlock tried to connect ({@link RedisConnectionSettings#describe()}) and why not. */
    public String message(String where) {
        return "Padlock could not connect to Redis (" + where + "): " + summary();
    }

    @Override
    public String toString() {
        return "ConnectionFailure[" + cause + ": " + summary() + "]";
    }

    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t) && chain.size() < 20; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** A certificate problem anywhere below the TLS failure: PKIX path, validity, host name. */
    private static boolean untrusted(List<Throwable> chain) {
        for (Throwable t : chain) {
            if (t instanceof CertificateException) {
                return true;
            }
            String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (message.contains("pkix")
                    || message.contains("certificate")
                    || message.contains("subject alternative")) {
                return true;
            }
        }
        return false;
    }

    /** The message of a Redis error reply as Redisson wraps it, or "" for other exceptions. */
    private static String redisReply(Throwable t) {
        if (t instanceof CompletionException || t instanceof ExecutionException) {
            return ""; // their message repeats the cause's, which comes next in the chain
        }
        String message = t.getMessage();
        return message == null
                ? ""
                : REDISSON_SUFFIX.matcher(message).replaceFirst("").trim();
    }

    /** The keys a fix names, and how to quote a failure without its secrets. */
    private static final class Keys {
        private final RedisConnectionSettings settings;
        private final Secrets secrets;

        Keys(RedisConnectionSettings settings) {
            this.settings = settings;
            this.secrets = settings == null ? Secrets.NONE : settings.secrets();
        }

        private boolean file() {
            return settings != null && settings.configFile() != null;
        }

        private boolean application() {
            return settings == null;
        }

        private String address() {
            return settings.addressKey();
        }

        private String inFile(String what) {
            return "Check " + what + " in the Redisson YAML file that " + REDIS_CONFIG_FILE + " names";
        }

        private String inApplicationClient(String what) {
            return "Check " + what + " of the application's own RedissonClient, which Padlock locks with";
        }

        String wrongCredentials() {
            String why = ": a wrong password, an unknown ACL user and a disabled one all read WRONGPASS";
            if (application()) {
                return inApplicationClient("the username and password") + why;
            }
            if (file()) {
                return inFile("username and password") + why;
            }
            String keys = REDIS_USERNAME + " and " + REDIS_PASSWORD;
            if (settings.addressHasUserInfo()) {
                keys += ", and the user info in " + address() + " (redis://user:password@host:port)";
            }
            return "Check " + keys + why;
        }

        String noCredentials() {
            if (application()) {
                return inApplicationClient("the password");
            }
            if (file()) {
                return inFile("password (and username for an ACL user)");
            }
            String fix = "Set " + REDIS_PASSWORD + " (and " + REDIS_USERNAME + " for an ACL user)";
            if (!address().startsWith("padlock.")) {
                fix += "; Padlock takes only the address from " + address() + ", with any user info in it";
            }
            return fix;
        }

        String unexpectedPassword() {
            if (application()) {
                return inApplicationClient("the password");
            }
            if (file()) {
                return inFile("password and username");
            }
            List<String> sent = new ArrayList<>();
            if (settings.password() != null || !settings.addressHasUserInfo()) {
                sent.add(REDIS_PASSWORD);
            }
            if (settings.addressHasUserInfo()) {
                sent.add("the user info in " + address());
            }
            return "Remove " + String.join(" and ", sent) + ", or set " + REDIS_USERNAME
                    + " to the ACL user the password belongs to";
        }

        String tlsNotAnswered() {
            if (application()) {
                return inApplicationClient("the address");
            }
            if (file()) {
                return inFile("the address") + ": redis:// rather than rediss:// if that port has no TLS, or the"
                        + " server's tls-port";
            }
            return "Use redis:// rather than rediss:// in " + address() + " if that port has no TLS, or the server's"
                    + " tls-port";
        }

        String tlsUntrusted() {
            if (application()) {
                return inApplicationClient("the TLS trust store");
            }
            if (file()) {
                return inFile("sslTruststore and sslVerificationMode");
            }
            return "Make the JVM trust the server's certificate authority (javax.net.ssl.trustStore), or give Redisson"
                    + " a trust store (sslTruststore) in a YAML file named by " + REDIS_CONFIG_FILE
                    + "; check that the host in " + address() + " is a name the certificate holds";
        }

        String tls() {
            if (application()) {
                return inApplicationClient("the TLS settings");
            }
            if (file()) {
                return inFile("the address scheme and the ssl* settings");
            }
            return "Check that " + address() + " uses rediss:// only for the server's TLS port, and the server's TLS"
                    + " settings";
        }

        String refused() {
            if (application()) {
                return inApplicationClient("the address");
            }
            if (file()) {
                return inFile("the address") + ", and that Redis runs there";
            }
            return "Check that Redis runs there and that " + address() + " names its host and port";
        }

        String notRedis() {
            if (application()) {
                return inApplicationClient("the address");
            }
            if (file()) {
                return inFile("the address");
            }
            return "Check that " + address() + " names Redis's port, not another service's";
        }

        String unknownHost() {
            if (application()) {
                return inApplicationClient("the host name");
            }
            if (file()) {
                return inFile("the host name");
            }
            return "Check the host name in " + address();
        }

        String timeout() {
            String why = ": a firewall that drops packets, an overloaded server, or a TLS port addressed with"
                    + " redis:// instead of rediss:// all look like this";
            if (application()) {
                return inApplicationClient("the address and timeouts") + why;
            }
            if (file()) {
                return inFile("the address and timeouts") + why;
            }
            return "Check that " + address() + " names a Redis port this machine can reach" + why;
        }

        String other() {
            if (application()) {
                return inApplicationClient("the configuration");
            }
            if (file()) {
                return inFile("the configuration");
            }
            return "Check " + address() + " and the other padlock.redis.* keys";
        }

        /** The exception's message, or its type when it has none (a timeout's may be empty); no secret. */
        String quote(Throwable t) {
            String message = redisReply(t);
            return quote(message.isEmpty() ? t.getClass().getSimpleName() : message);
        }

        /** The exception's type and message, for a failure none of the causes describes; no secret. */
        String quoteWithType(Throwable t) {
            String message = redisReply(t);
            String name = t.getClass().getSimpleName();
            return quote(message.isEmpty() || message.startsWith(name) ? name : name + ": " + message);
        }

        String quote(String text) {
            String masked = secrets.strikeOut(text.replaceAll("\\s+", " ").trim());
            return masked.length() > MAX_QUOTE ? masked.substring(0, MAX_QUOTE) + "…" : masked;
        }
    }
}
