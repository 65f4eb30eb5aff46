package dev.padlock.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a redis-server started by {@link Redis#startServer(ServerOptions)} has beyond the defaults, for tests of how
 * a client connects: a password for the default user, ACL users, a TLS port. Immutable: each method returns a
 * changed copy.
 *
 * <pre>{@code
 * try (RedisServer redis = Redis.startServer(ServerOptions.defaults().user("app", "app-secret").tls())) {
 *     String address = redis.tlsUri(); // rediss://127.0.0.1:<port>; trust redis.tlsTrustStore()
 * }
 * }</pre>
 */
public final class ServerOptions {

    /** The password of {@link RedisServer#tlsTrustStore()}. */
    public static final String TRUST_STORE_PASSWORD = SelfSignedCertificate.STORE_PASSWORD;

    private static final ServerOptions DEFAULTS = new ServerOptions(null, Map.of(), false, null);

    private final String password;
    private final Map<String, String> users;
    private final boolean tls;
    private final ServerClock clock;

    private ServerOptions(String password, Map<String, String> users, boolean tls, ServerClock clock) {
        this.password = password;
        this.users = users;
        this.tls = tls;
        this.clock = clock;
    }

    /** A server as {@link Redis#startServer()} starts it: no password, no ACL user, no TLS. */
    public static ServerOptions defaults() {
        return DEFAULTS;
    }

    /**
     * The default user's password ({@code requirepass}): a client that sends none gets {@code NOAUTH}, one that sends
     * another gets {@code WRONGPASS}. The harness itself authenticates with it ({@link RedisServer#command} and
     * stopping the server work as usual).
     */
    public ServerOptions requirePass(String password) {
        return new ServerOptions(nonEmpty(password, "password"), users, tls, clock);
    }

    /**
     * An ACL user allowed every command, key and channel, beside the default user (who keeps its own password, or
     * none).
     */
    public ServerOptions user(String name, String password) {
        Map<String, String> more = new LinkedHashMap<>(users);
        more.put(nonEmpty(name, "name"), nonEmpty(password, "password"));
        return new ServerOptions(this.password, Collections.unmodifiableMap(more), tls, clock);
    }

    /**
     * A TLS port beside the plain one ({@link RedisServer#tlsPort()}), with a self-signed certificate for
     * {@code 127.0.0.1} and {@code localhost} that the harness makes with the JDK's {@code keytool}. Clients trust it
     * through {@link RedisServer#tlsTrustStore()}; client certificates are not asked for. Needs a redis-server built
     * with TLS (Debian's and Homebrew's are).
     */
    public ServerOptions tls() {
        return new ServerOptions(password, users, true, clock);
    }

    /**
     * The server's wall clock is {@code clock}, which the test steps or stops ({@link ServerClock}); also after a
     * restart of the server.
     */
    public ServerOptions clock(ServerClock clock) {
        return new ServerOptions(password, users, tls, Objects.requireNonNull(clock, "clock"));
    }

    /** What the server process is started with beside the command line: a steppable clock's library. */
    Map<String, String> environment() {
        return clock == null ? Map.of() : clock.environment();
    }

    String password() {
        return password;
    }

    boolean hasTls() {
        return tls;
    }

    /** The arguments after the standalone ones, for a server living in {@code dir}, TLS on {@code tlsPort}. */
    List<String> arguments(Path dir, int tlsPort) throws IOException {
        List<String> args = new ArrayList<>();
        if (password != null) {
            args.add("--requirepass");
            args.add(password);
        }
        users.forEach((name, secret) -> {
            // redis-server joins the arguments up to the next option into one config line: the user's rules.
            args.addAll(List.of("--user", name, "on", ">" + secret, "~*", "&*", "+@all"));
        });
        if (tls) {
            SelfSignedCertificate certificate = SelfSignedCertificate.in(dir);
            args.addAll(List.of(
                    "--tls-port",
                    String.valueOf(tlsPort),
                    "--tls-cert-file",
                    certificate.certificate().toString(),
                    "--tls-key-file",
                    certificate.key().toString(),
                    "--tls-auth-clients",
                    "no"));
        }
        return args;
    }

    private static String nonEmpty(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty()) {
            throw new IllegalArgumentException("The " + what + " must not be empty");
        }
        return value;
    }

    /** Names and whether set, never a password. */
    @Override
    public String toString() {
        return "ServerOptions[" + (password != null ? "requirepass, " : "") + "users " + users.keySet()
                + (tls ? ", tls" : "") + (clock != null ? ", steppable clock" : "") + "]";
    }
}
