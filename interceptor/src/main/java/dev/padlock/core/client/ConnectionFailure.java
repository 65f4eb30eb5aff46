package dev.padlock.core.client;

import static dev.padlock.core.client.CauseChain.links;
import static dev.padlock.core.client.CauseChain.reply;
import static dev.padlock.core.config.ConfigKeys.REDIS_CONFIG_FILE;
import static dev.padlock.core.config.ConfigKeys.REDIS_PASSWORD;
import static dev.padlock.core.config.ConfigKeys.REDIS_USERNAME;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLException;
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
 *
 * @param cause what went wrong, and so what to check
 * @param reason what went wrong, with Redis's or the network's own words in parentheses; never a password
 * @param fix what to check or change, naming the configuration keys
 */
public record ConnectionFailure(Cause cause, String reason, String fix) {

    /**
     * What went wrong, and so what to check: each cause with the links of Redisson's cause chain that show it, its
     * reason ({@code %s} is what the link says) and its fix for each place the connection can be configured: the
     * application's own client, whose configuration Padlock does not know; a Redisson YAML file; or Padlock's keys.
     * The first cause, in this order, that any link shows is the one reported: a Redis reply about credentials, then
     * TLS, then the network. netty's exceptions are matched by class: Redisson depends on netty-transport and
     * netty-handler, which hold both classes in netty 4.1 (Quarkus's) and 4.2 alike.
     */
    public enum Cause {
        /** {@code WRONGPASS}: a wrong password, an unknown ACL user, or a disabled one (Redis tells nobody which). */
        WRONG_CREDENTIALS(
                t -> t instanceof RedisWrongPasswordException
                        || reply(t).startsWith("WRONGPASS")
                        || reply(t).startsWith("ERR invalid password"),
                "Redis refused the username or password (%s)",
                inApplicationClient("the username and password") + ALL_WRONGPASS,
                inFile("username and password") + ALL_WRONGPASS,
                s -> "Check " + REDIS_USERNAME + " and " + REDIS_PASSWORD
                        + (s.addressHasUserInfo()
                                ? ", and the user info in " + s.addressKey() + " (redis://user:password@host:port)"
                                : "")
                        + ALL_WRONGPASS),
        /** {@code NOAUTH}: Redis requires a password and none was sent. */
        NO_CREDENTIALS(
                t -> t instanceof RedisAuthRequiredException || reply(t).startsWith("NOAUTH"),
                "Redis requires a password, and none was sent (%s)",
                inApplicationClient("the password"),
                inFile("password (and username for an ACL user)"),
                s -> "Set " + REDIS_PASSWORD + " (and " + REDIS_USERNAME + " for an ACL user)"
                        + (s.addressKey().startsWith("padlock.")
                                ? ""
                                : "; Padlock takes only the address from " + s.addressKey()
                                        + ", with any user info in it")),
        /** A password was sent to a Redis whose default user has none ({@code ERR AUTH <password> called without}). */
        UNEXPECTED_PASSWORD(
                t -> reply(t).startsWith("ERR")
                        && (reply(t).contains("called without any password configured")
                                || reply(t).contains("no password is set")),
                "a password was sent, but the Redis server has none for its default user (%s)",
                inApplicationClient("the password"),
                inFile("password and username"),
                ConnectionFailure::removeThePassword),
        /** The TLS handshake got no answer: {@code rediss://} to a port that does not speak TLS. */
        TLS_NOT_ANSWERED(
                t -> t instanceof SslHandshakeTimeoutException,
                "the TLS handshake got no answer (%s): the port does not seem to speak TLS",
                inApplicationClient("the address"),
                inFile("the address") + ": redis:// rather than rediss:// if that port has no TLS, or the server's"
                        + " tls-port",
                s -> "Use redis:// rather than rediss:// in " + s.addressKey() + " if that port has no TLS, or the"
                        + " server's tls-port"),
        /** The server's TLS certificate was not accepted: not trusted, or not for this host name. */
        TLS_UNTRUSTED(
                t -> t instanceof SSLException && links(t).stream().anyMatch(CauseChain::certificateProblem),
                "the TLS handshake failed: the server's certificate was not accepted (%s)",
                inApplicationClient("the TLS trust store"),
                inFile("sslTruststore and sslVerificationMode"),
                s -> "Make the JVM trust the server's certificate authority (javax.net.ssl.trustStore), or give"
                        + " Redisson a trust store (sslTruststore) in a YAML file named by " + REDIS_CONFIG_FILE
                        + "; check that the host in " + s.addressKey() + " is a name the certificate holds"),
        /** Any other TLS failure. */
        TLS(
                t -> t instanceof SSLException,
                "the TLS handshake failed (%s)",
                inApplicationClient("the TLS settings"),
                inFile("the address scheme and the ssl* settings"),
                s -> "Check that " + s.addressKey() + " uses rediss:// only for the server's TLS port, and the"
                        + " server's TLS settings"),
        /** The host name does not resolve. */
        UNKNOWN_HOST(
                t -> t instanceof UnknownHostException,
                "the host name does not resolve (%s)",
                inApplicationClient("the host name"),
                inFile("the host name"),
                s -> "Check the host name in " + s.addressKey()),
        /** Connected, but no answer in time; before {@link #REFUSED}, as netty's timeout is a ConnectException. */
        TIMEOUT(
                t -> t instanceof RedisTimeoutException
                        || t instanceof TimeoutException
                        || t instanceof SocketTimeoutException
                        || t instanceof ConnectTimeoutException,
                "Redis did not answer in time (%s)",
                inApplicationClient("the address and timeouts") + ALL_TIME_OUT,
                inFile("the address and timeouts") + ALL_TIME_OUT,
                s -> "Check that " + s.addressKey() + " names a Redis port this machine can reach" + ALL_TIME_OUT),
        /** Something that does not speak Redis's protocol answers ({@code Can't decode replay: HTTP/1.1 400 ...}). */
        NOT_REDIS(
                t -> reply(t).startsWith("Can't decode replay"),
                "something that does not speak Redis's protocol answers there (%s)",
                inApplicationClient("the address"),
                inFile("the address"),
                s -> "Check that " + s.addressKey() + " names Redis's port, not another service's"),
        /** Nothing accepts connections at the address ({@code ConnectException: Connection refused}). */
        REFUSED(
                t -> t instanceof ConnectException,
                "nothing accepts connections there (%s)",
                inApplicationClient("the address"),
                inFile("the address") + ", and that Redis runs there",
                s -> "Check that Redis runs there and that " + s.addressKey() + " names its host and port"),
        /** None of the above: the innermost exception is quoted, with its type. */
        OTHER(
                t -> false,
                "%s",
                inApplicationClient("the configuration"),
                inFile("the configuration"),
                s -> "Check " + s.addressKey() + " and the other padlock.redis.* keys");

        private final Predicate<Throwable> shownBy;
        private final String reason;
        private final String applicationFix;
        private final String fileFix;
        private final Function<RedisConnectionSettings, String> keysFix;

        Cause(
                Predicate<Throwable> shownBy,
                String reason,
                String applicationFix,
                String fileFix,
                Function<RedisConnectionSettings, String> keysFix) {
            this.shownBy = shownBy;
            this.reason = reason;
            this.applicationFix = applicationFix;
            this.fileFix = fileFix;
            this.keysFix = keysFix;
        }

        /** @param settings {@code null} for the application's own client */
        private String fix(RedisConnectionSettings settings) {
            return settings == null
                    ? applicationFix
                    : settings.configFile() != null ? fileFix : keysFix.apply(settings);
        }
    }

    private static final int MAX_QUOTE = 300;

    /** Why two fixes name what they do, after each of their three texts. */
    private static final String ALL_WRONGPASS =
            ": a wrong password, an unknown ACL user and a disabled one all read WRONGPASS";

    private static final String ALL_TIME_OUT = ": a firewall that drops packets, an overloaded server, or a TLS port"
            + " addressed with redis:// instead of rediss:// all look like this";

    /**
     * @param failure what Redisson threw, at any depth of wrapping
     * @param settings Padlock's connection settings, which name the keys to check; {@code null} for the
     *     application's own client, whose configuration Padlock does not know
     */
    public static ConnectionFailure of(Throwable failure, RedisConnectionSettings settings) {
        Secrets secrets = settings == null ? Secrets.NONE : settings.secrets();
        List<Throwable> chain = links(failure);
        for (Cause cause : Cause.values()) {
            for (Throwable t : chain) {
                if (cause.shownBy.test(t)) {
                    // its message, or its type when it has none (a timeout's may be empty)
                    String said = reply(t).isEmpty() ? t.getClass().getSimpleName() : reply(t);
                    return new ConnectionFailure(
                            cause, cause.reason.formatted(quote(said, secrets)), cause.fix(settings));
                }
            }
        }
        Throwable innermost = chain.get(chain.size() - 1);
        String name = innermost.getClass().getSimpleName();
        String said =
                reply(innermost).isEmpty() || reply(innermost).startsWith(name) ? name : name + ": " + reply(innermost);
        return new ConnectionFailure(Cause.OTHER, quote(said, secrets), Cause.OTHER.fix(settings));
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

    private static String inFile(String what) {
        return "Check " + what + " in the Redisson YAML file that " + REDIS_CONFIG_FILE + " names";
    }

    private static String inApplicationClient(String what) {
        return "Check " + what + " of the application's own RedissonClient, which Padlock locks with";
    }

    /** The fix of {@link Cause#UNEXPECTED_PASSWORD}: remove what sent the password, key or user info. */
    private static String removeThePassword(RedisConnectionSettings settings) {
        List<String> sent = new ArrayList<>();
        if (settings.password() != null || !settings.addressHasUserInfo()) {
            sent.add(REDIS_PASSWORD);
        }
        if (settings.addressHasUserInfo()) {
            sent.add("the user info in " + settings.addressKey());
        }
        return "Remove " + String.join(" and ", sent) + ", or set " + REDIS_USERNAME
                + " to the ACL user the password belongs to";
    }

    /** {@code text} on one line, without secrets, and cut short. */
    private static String quote(String text, Secrets secrets) {
        String quoted = secrets.strikeOut(text.replaceAll("\\s+", " ").trim());
        return quoted.length() > MAX_QUOTE ? quoted.substring(0, MAX_QUOTE) + "…" : quoted;
    }
}
