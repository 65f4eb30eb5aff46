package dev.padlock.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.core.client.RedisReachability.Result;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The readiness answer both integrations render: up with the address, down with a reason that names what failed,
 * "connecting" without waiting, bounded when Redis stops answering, and never a password.
 */
@ExtendWith(RedisExtension.class)
class RedisReachabilityTest {

    static final String CONFIGURED_SECRET = "k3y-Pa55word";
    static final String ADDRESS_SECRET = "addr-S3cret";

    @Test
    void upWithTheAddressWhenRedisAnswers(RedisServer redis) {
        try (ManagedClient client = client(Map.of("padlock.redis.address", redis.uri()))) {
            client.get();

            Result result = RedisReachability.of(client).check();

            assertThat(result.up()).as("%s", result).isTrue();
            assertThat(result.address()).isEqualTo("single [" + redis.uri() + "]");
            assertThat(result.reason()).isNull();
        }
    }

    @Test
    void connectingWhileTheFirstAttemptIsUnderWayWithoutWaitingForIt(RedisProxy proxy) {
        proxy.cut(); // the handshake is accepted, but no reply comes: the attempt stays under way
        try (ManagedClient client = client(Map.of("padlock.redis.address", proxy.uri()))) {
            client.connectInBackground();

            Result result = RedisReachability.of(client).check();

            assertThat(result.up()).isFalse();
            assertThat(result.reason()).isEqualTo("connecting");
            // answered while the attempt is still under way (the cut proxy never completes it): it did not wait
            assertThat(client.getNow()).isNull();
        }
    }

    @Test
    void downWithinTheBoundWhenConnectedRedisStopsAnswering(RedisProxy proxy) {
        try (ManagedClient client = client(Map.of("padlock.redis.address", proxy.uri()))) {
            client.get();
            RedisReachability reachability = RedisReachability.of(client);
            assertThat(reachability.check().up()).isTrue();

            proxy.cut();
            Result result = reachability.check();

            // ended by the check's own bound (its reason names it), not by Redisson's longer timeouts
            assertThat(result.up()).isFalse();
            assertThat(result.reason()).contains("PING", "2 s");
            proxy.restore();
            assertThat(reachability.check().up()).isTrue();
        }
    }

    @Test
    void downNamingTheFailureWithNeitherPasswordWhenRedisCannotBeReached() {
        String address = "redis://app:" + ADDRESS_SECRET + "@127.0.0.1:" + closedPort();
        try (ManagedClient client =
                client(Map.of("padlock.redis.address", address, "padlock.redis.password", CONFIGURED_SECRET))) {
            assertThat(catchThrowable(client::get)).isInstanceOf(IllegalStateException.class);

            Result result = RedisReachability.of(client).check();

            assertThat(result.up()).isFalse();
            assertThat(result.reason())
                    .doesNotContain("null")
                    .contains("nothing accepts connections there", "padlock.redis.address");
            assertThat(result.address()).contains("redis://***@127.0.0.1:", "(password set)");
            assertThat(result.toString()).doesNotContain(CONFIGURED_SECRET, ADDRESS_SECRET);
        }
    }

    /** Quarkus #26885: a timeout without a message read "null". */
    @Test
    void aFailureWithoutAMessageIsNamedByItsType() {
        Result result = RedisReachability.ofApplicationClient(() -> {
                    throw new IllegalStateException(new TimeoutException());
                })
                .check();

        assertThat(result.up()).isFalse();
        assertThat(result.address()).isEqualTo(RedisReachability.APPLICATION_CLIENT);
        assertThat(result.reason())
                .startsWith("Redis did not answer in time (TimeoutException)")
                .contains("the application's own RedissonClient")
                .doesNotContain("null");
    }

    private ManagedClient client(Map<String, String> keys) {
        Problems problems = new Problems();
        RedisConnectionSettings settings = RedisConnectionReader.read(ConfigView.of(keys), problems);
        assertThat(problems.list()).isEmpty();
        return new ManagedClient(settings, getClass().getClassLoader(), ConnectionFailureTest::quick);
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
