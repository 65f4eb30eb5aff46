package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.redisserver.RedisReplyException;
import dev.padlock.redisserver.RespConnection;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/** A redis-server with a password, an ACL user and a TLS port, which the harness still drives and stops. */
class ServerOptionsTest {

    static final String PASSWORD = "default-S3cret";
    static final String USER_PASSWORD = "app-S3cret";

    @Test
    void requiresThePasswordFromClientsButNotFromTheHarness() throws IOException {
        try (RedisServer redis = Redis.startServer(ServerOptions.defaults().requirePass(PASSWORD))) {
            assertThatThrownBy(() -> RespConnection.call(redis.host(), redis.port(), "PING"))
                    .isInstanceOf(RedisReplyException.class)
                    .hasMessageStartingWith("NOAUTH");
            assertThatThrownBy(() -> RespConnection.callWithPassword(redis.host(), redis.port(), "wrong", "PING"))
                    .hasMessageStartingWith("WRONGPASS");

            assertThat(RespConnection.callWithPassword(redis.host(), redis.port(), PASSWORD, "PING"))
                    .isEqualTo("PONG");
            assertThat(redis.command("PING")).isEqualTo("PONG");
            redis.restart();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void anAclUserAuthenticatesWithItsNameAndPassword() throws IOException {
        try (RedisServer redis = Redis.startServer(ServerOptions.defaults().user("app", USER_PASSWORD));
                RespConnection connection = RespConnection.open(redis.host(), redis.port())) {
            assertThatThrownBy(() -> connection.send("AUTH", "app", "wrong")).hasMessageStartingWith("WRONGPASS");
            assertThat(connection.send("AUTH", "app", USER_PASSWORD)).isEqualTo("OK");
            assertThat(connection.send("ACL", "WHOAMI")).isEqualTo("app");
            assertThat(connection.send("SET", "k", "v")).isEqualTo("OK");
        }
    }

    @Test
    void answersOnItsTlsPortWithACertificateItsTrustStoreTrusts() throws Exception {
        try (RedisServer redis = Redis.startServer(ServerOptions.defaults().tls())) {
            assertThat(redis.tlsUri()).isEqualTo("rediss://127.0.0.1:" + redis.tlsPort());
            assertThat(redis.tlsPort()).isNotEqualTo(redis.port());
            assertThat(redis.command("PING")).as("the plain port stays").isEqualTo("PONG");

            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trusting(redis.tlsTrustStore()).getTrustManagers(), null);
            try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(redis.host(), redis.tlsPort())) {
                socket.setSoTimeout(10_000);
                socket.startHandshake();
                socket.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                byte[] reply = socket.getInputStream().readNBytes(7);
                assertThat(new String(reply, StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
            }
            Path trustStore = redis.tlsTrustStore();
            redis.close();
            assertThat(trustStore).doesNotExist();
        }
    }

    @Test
    void aServerWithoutTlsSaysSoWhenAskedForItsTlsPort() {
        try (RedisServer redis = Redis.startServer(ServerOptions.defaults())) {
            assertThatThrownBy(redis::tlsPort).hasMessageContaining("ServerOptions.tls()");
        }
    }

    @Test
    void itsDescriptionNamesNoPassword() {
        assertThat(ServerOptions.defaults()
                        .requirePass(PASSWORD)
                        .user("app", USER_PASSWORD)
                        .tls()
                        .toString())
                .contains("requirepass", "app", "tls")
                .doesNotContain(PASSWORD, USER_PASSWORD);
    }

    private static TrustManagerFactory trusting(Path trustStore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(trustStore)) {
            store.load(in, ServerOptions.TRUST_STORE_PASSWORD.toCharArray());
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory;
    }
}
