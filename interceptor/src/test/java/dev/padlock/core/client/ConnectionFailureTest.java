package dev.padlock.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ServerOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.client.NettyHook;
import org.redisson.config.BaseConfig;
import org.redisson.config.Config;

/**
 * What Padlock's client says when it cannot connect, against real redis-servers: each cause Redis or the network
 * gives is named (Redisson itself only says "Unable to connect to Redis server: host:port"), with the key to check,
 * in the exception every caller gets and in the readiness reason; and the password is in neither, nor anywhere in
 * the exception's cause chain.
 */
@ExtendWith(RedisExtension.class)
class ConnectionFailureTest {

    static final String DEFAULT_SECRET = "default-S3cret";
    static final String APP_SECRET = "app-S3cret";
    static final String WRONG_SECRET = "wr0ng-S3cret";
    static final String FILE_SECRET = "f1le-S3cret";

    /** A Redis that wants a password for its default user, has an ACL user "app", and a TLS port. */
    static RedisServer guarded;

    @BeforeAll
    static void startGuardedRedis() {
        guarded = Redis.startServer(ServerOptions.defaults()
                .requirePass(DEFAULT_SECRET)
                .user("app", APP_SECRET)
                .tls());
    }

    @AfterAll
    static void stopGuardedRedis() {
        if (guarded != null) {
            guarded.close();
        }
    }

    @Test
    void aWrongPasswordOfAnAclUserNamesWrongpassAndTheCredentialKeys() {
        Failure failure = connect(Map.of(
                "padlock.redis.address",
                guarded.uri(),
                "padlock.redis.username",
                "app",
                "padlock.redis.password",
                WRONG_SECRET));

        failure.says(
                "Redis refused the username or password",
                "WRONGPASS",
                "padlock.redis.username and padlock.redis.password");
        assertThat(failure.message)
                .startsWith("Padlock could not connect to Redis (single [" + guarded.uri()
                        + "] user app (password set)): ");
    }

    @Test
    void aWrongPasswordInTheAddressNamesTheAddressKey() {
        String address = guarded.uri().replace("redis://", "redis://app:" + WRONG_SECRET + "@");

        Failure failure = connect(Map.of("padlock.redis.address", address));

        failure.says("WRONGPASS", "the user info in padlock.redis.address");
    }

    @Test
    void noPasswordForAPasswordProtectedRedisNamesNoauthAndThePasswordKey() {
        Failure failure = connect(Map.of("padlock.redis.address", guarded.uri()));

        failure.says("Redis requires a password, and none was sent", "NOAUTH", "Set padlock.redis.password");
    }

    @Test
    void aPasswordForARedisWithoutOneSaysSo(RedisServer open) {
        Failure failure = connect(Map.of("padlock.redis.address", open.uri(), "padlock.redis.password", WRONG_SECRET));

        failure.says("the Redis server has none for its default user", "Remove padlock.redis.password");
    }

    @Test
    void nothingListeningNamesTheRefusalAndTheAddressKey() {
        Failure failure = connect(Map.of(
                "padlock.redis.address",
                "redis://app:" + WRONG_SECRET + "@127.0.0.1:" + closedPort(),
                "padlock.redis.password",
                WRONG_SECRET));

        failure.says("nothing accepts connections there", "Connection refused", "padlock.redis.address");
    }

    @Test
    void nothingListeningInClusterModeNamesTheNodesKey() {
        Failure failure = connect(
                Map.of("padlock.redis.mode", "cluster", "padlock.redis.nodes", "redis://127.0.0.1:" + closedPort()));

        failure.says("Connection refused", "padlock.redis.nodes");
    }

    @Test
    void anUnknownHostIsNamed() {
        Failure failure = connect(Map.of("padlock.redis.address", "redis://no-such-host.invalid:6379"));

        failure.says(
                "the host name does not resolve",
                "no-such-host.invalid",
                "Check the host name in padlock.redis.address");
    }

    @Test
    void anUntrustedCertificateNamesTheTrustStore() {
        Failure failure = connect(Map.of(
                "padlock.redis.address",
                guarded.tlsUri(),
                "padlock.redis.username",
                "app",
                "padlock.redis.password",
                APP_SECRET));

        failure.says(
                "the TLS handshake failed: the server's certificate was not accepted",
                "PKIX",
                "javax.net.ssl.trustStore",
                "sslTruststore",
                "padlock.redis.config-file");
        failure.hasNo(APP_SECRET);
    }

    /** The report in the issue: TLS and an ACL user; the right password works, a wrong one must say WRONGPASS. */
    @Test
    void overTlsTheRightPasswordConnectsAndAWrongOneNamesWrongpassAndTheFile(@TempDir Path dir) throws IOException {
        String trust = "sslTruststore: \"" + guarded.tlsTrustStore().toUri() + "\"\n"
                + "sslTruststorePassword: \"" + ServerOptions.TRUST_STORE_PASSWORD + "\"\n"
                + "username: app\n"
                + "singleServerConfig:\n  address: \"" + guarded.tlsUri() + "\"\n";
        Path right = Files.writeString(dir.resolve("right.yaml"), trust + "password: \"" + APP_SECRET + "\"\n");
        Path wrong = Files.writeString(dir.resolve("wrong.yaml"), trust + "password: \"" + WRONG_SECRET + "\"\n");

        try (ManagedClient client = client(Map.of("padlock.redis.config-file", right.toString()))) {
            assertThat(client.get().getBucket("tls").trySet("works")).isTrue();
        }
        Failure failure = connect(Map.of("padlock.redis.config-file", wrong.toString()));

        failure.says(
                "WRONGPASS", "username and password in the Redisson YAML file that padlock.redis.config-file names");
    }

    @Test
    void aTlsAddressOfAPortWithoutTlsSaysTheHandshakeGotNoAnswer(@TempDir Path dir) throws IOException {
        // No retries keep it to one handshake (whose 10 s timeout, Netty's, the test shortens: see quick).
        Path file = Files.writeString(
                dir.resolve("redisson.yaml"),
                "singleServerConfig:\n  address: \"" + guarded.uri().replace("redis://", "rediss://")
                        + "\"\n  retryAttempts: 0\n");

        Failure failure = connect(Map.of("padlock.redis.config-file", file.toString()));

        failure.says("the TLS handshake got no answer", "does not seem to speak TLS", "redis:// rather than rediss://");
    }

    @Test
    void aPlainAddressOfATlsPortTimesOutAndSaysWhatThatCanMean(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(
                dir.resolve("redisson.yaml"), shortTimeouts("redis://127.0.0.1:" + guarded.tlsPort()));

        Failure failure = connect(Map.of("padlock.redis.config-file", file.toString()));

        failure.says(
                "Redis did not answer in time",
                "a TLS port addressed with redis:// instead of rediss://",
                "padlock.redis.config-file");
    }

    @Test
    void aRedisThatStopsAnsweringTimesOutWithoutShowingTheFilesPassword(RedisProxy proxy, @TempDir Path dir)
            throws IOException {
        proxy.cut();
        Path file = Files.writeString(
                dir.resolve("redisson.yaml"), "password: \"" + FILE_SECRET + "\"\n" + shortTimeouts(proxy.uri()));

        Failure failure = connect(Map.of("padlock.redis.config-file", file.toString()));

        failure.says("Redis did not answer in time", "timeouts in the Redisson YAML file");
        failure.hasNo(FILE_SECRET);
    }

    private static String shortTimeouts(String address) {
        return "singleServerConfig:\n  address: \"" + address + "\"\n  connectTimeout: 500\n  timeout: 500\n"
                + "  retryAttempts: 0\n";
    }

    /** What one failed connection shows: the exception a caller gets, with its chain, and the readiness reason. */
    private Failure connect(Map<String, String> keys) {
        try (ManagedClient client = client(keys)) {
            Throwable thrown = catchThrowable(client::get);
            assertThat(thrown).as("connected, but should not have").isNotNull();
            RedisReachability.Result readiness = RedisReachability.of(client).check();
            assertThat(readiness.up()).isFalse();
            return new Failure(thrown.getMessage(), chain(thrown), readiness.reason());
        }
    }

    private record Failure(String message, String chain, String readiness) {
        /** The message and the readiness reason both contain every text; no secret is in any of it. */
        void says(String... texts) {
            assertThat(message).contains(texts);
            assertThat(readiness).contains(texts);
            hasNo(WRONG_SECRET, APP_SECRET, DEFAULT_SECRET, FILE_SECRET);
        }

        void hasNo(String... secrets) {
            assertThat(chain).doesNotContain(secrets);
            assertThat(readiness).doesNotContain(secrets);
        }
    }

    private ManagedClient client(Map<String, String> keys) {
        Problems problems = new Problems();
        RedisConnectionSettings settings = RedisConnectionReader.read(ConfigView.of(keys), problems);
        assertThat(problems.list()).isEmpty();
        return new ManagedClient(settings, getClass().getClassLoader(), ConnectionFailureTest::quick);
    }

    /**
     * Redisson's own timeouts and retries, shortened: each failure is then seen within about a second instead of six
     * (four retries 1.5 s apart) or ten (a TLS handshake), and is worded the same (a file's own retries are left as
     * the file sets them).
     */
    static Config quick(Config config) {
        BaseConfig<?> servers = config.isClusterConfig()
                ? config.useClusterServers()
                : config.isSentinelConfig()
                        ? config.useSentinelServers()
                        : config.isSingleConfig() ? config.useSingleServer() : null;
        if (servers != null
                && servers.getRetryAttempts() == new Config().useSingleServer().getRetryAttempts()) {
            servers.setRetryAttempts(1)
                    .setRetryInterval(100)
                    .setConnectTimeout(1000)
                    .setTimeout(1000);
        }
        // a TLS handshake that gets no answer gives up after Netty's 10 s, which no Redisson setting changes
        config.setNettyHook(new NettyHook() {
            @Override
            public void afterBoostrapInitialization(Bootstrap bootstrap) {}

            @Override
            public void afterChannelInitialization(Channel channel) {
                SslHandler tls = channel.pipeline().get(SslHandler.class);
                if (tls != null) {
                    tls.setHandshakeTimeoutMillis(1000);
                }
            }
        });
        return config;
    }

    /** The stack trace as printed: every message of the chain, causes and suppressed ones included. */
    private static String chain(Throwable failure) {
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        failure.printStackTrace(new PrintStream(trace, true, StandardCharsets.UTF_8));
        return trace.toString(StandardCharsets.UTF_8);
    }

    /** A port nothing listens on (it was free a moment ago). */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
