package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.redisserver.Info;
import dev.padlock.redisserver.RespConnection;
import dev.padlock.redisserver.Wait;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class RedisProxyTest {
    // How long a client waits for an answer before concluding it gets none: the client's timeout, not the proxy's.
    private static final Duration NO_ANSWER = Duration.ofMillis(300);

    @Test
    void forwardsCommandsAndRepliesToTheServerBehindIt(RedisServer redis, RedisProxy proxy) throws IOException {
        assertThat(proxy.uri()).isEqualTo("redis://127.0.0.1:" + proxy.port());
        assertThat(proxy.port()).isNotEqualTo(redis.port()).isNotEqualTo(6379);

        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");
            assertThat(client.send("SET", "proxied", "yes")).isEqualTo("OK");
            assertThat(client.send("GET", "proxied")).isEqualTo("yes");
            assertThat(proxy.openConnections()).isEqualTo(1);
        }
        assertThat(redis.command("GET", "proxied")).isEqualTo("yes");
        assertThat(proxy.acceptedConnections()).isEqualTo(1);
    }

    @Test
    void cutLeavesACommandUnansweredAndDeliversItAndItsReplyOnRestore(RedisServer redis, RedisProxy proxy)
            throws IOException {
        redis.command("DEL", "sent-during-cut");
        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");

            proxy.cut();
            client.readTimeout(NO_ANSWER);

            assertThatThrownBy(() -> client.send("SET", "sent-during-cut", "late"))
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat(redis.command("GET", "sent-during-cut")).isNull();
            assertThat(proxy.openConnections()).isEqualTo(1);

            proxy.restore();
            client.readTimeout(Duration.ofSeconds(10));

            assertThat(client.receive()).isEqualTo("OK");
            assertThat(client.send("GET", "sent-during-cut")).isEqualTo("late");
        }
    }

    @Test
    void cutHoldsBackRepliesFromRedisUntilRestore(RedisServer redis, RedisProxy proxy) throws IOException {
        redis.command("DEL", "queue");
        try (RespConnection client = open(proxy)) {
            client.write("BLPOP", "queue", "0");
            Wait.until(
                    "the client to block on BLPOP",
                    () -> "1"
                                    .equals(Info.fields(redis.command("INFO", "clients"))
                                            .get("blocked_clients"))
                            ? Boolean.TRUE
                            : null,
                    () -> "");

            proxy.cut();
            redis.command("RPUSH", "queue", "item");
            client.readTimeout(NO_ANSWER);

            assertThatThrownBy(client::receive).isInstanceOf(SocketTimeoutException.class);
            assertThat(redis.command("LLEN", "queue")).isEqualTo(0L);

            proxy.restore();
            client.readTimeout(Duration.ofSeconds(10));

            assertThat(client.receive()).isEqualTo(List.of("queue", "item"));
        }
    }

    @Test
    void connectionOpenedDuringCutIsAcceptedButAnsweredOnlyAfterRestore(RedisProxy proxy) throws IOException {
        proxy.cut();

        try (RespConnection client = open(proxy)) {
            client.readTimeout(NO_ANSWER);
            assertThatThrownBy(() -> client.send("PING")).isInstanceOf(SocketTimeoutException.class);
            assertThat(proxy.openConnections()).isEqualTo(1);

            proxy.restore();
            client.readTimeout(Duration.ofSeconds(10));

            assertThat(client.receive()).isEqualTo("PONG");
        }
    }

    @Test
    void cutsAndRestoresDuringTrafficLoseAndReorderNothing(RedisServer redis, RedisProxy proxy) throws Exception {
        redis.command("DEL", "counter", "large");
        String large = "x".repeat(100_000); // several proxy buffers, so cuts also land inside one reply
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger cuts = new AtomicInteger();
        Thread toggler = new Thread(() -> {
            while (!done.get()) {
                proxy.cut();
                cuts.incrementAndGet();
                LockSupport.parkNanos(500_000);
                proxy.restore();
                LockSupport.parkNanos(500_000);
            }
        });
        List<Object> mismatches = new ArrayList<>();
        try (RespConnection client = open(proxy)) {
            toggler.start();
            for (long i = 1; i <= 300; i++) {
                Object reply = client.send("INCR", "counter");
                if (!Long.valueOf(i).equals(reply)) {
                    mismatches.add(reply);
                }
                if (i % 30 == 0) {
                    client.send("SET", "large", large + i);
                    if (!(large + i).equals(client.send("GET", "large"))) {
                        mismatches.add("large value " + i);
                    }
                }
            }
        } finally {
            done.set(true);
            toggler.join();
        }

        assertThat(mismatches).isEmpty();
        assertThat(cuts.get()).isPositive();
        assertThat(redis.command("GET", "counter")).isEqualTo("300");
    }

    @Test
    void directConnectionKeepsAnsweringDuringCut(RedisServer redis, RedisProxy proxy) throws IOException {
        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");

            proxy.cut();

            assertThat(redis.command("SET", "direct", "fine")).isEqualTo("OK");
            assertThat(redis.command("GET", "direct")).isEqualTo("fine");
        }
    }

    @Test
    void resetClosesOpenConnectionsAbruptlyAndAcceptsNewOnes(RedisProxy proxy) throws IOException {
        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");

            proxy.reset();

            assertThatThrownBy(() -> client.send("PING")).isInstanceOfAny(EOFException.class, SocketException.class);
            assertThat(proxy.openConnections()).isZero();
        }
        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");
        }
        assertThat(proxy.acceptedConnections()).isEqualTo(2);
    }

    @Test
    void refuseResetsOpenConnectionsAndRefusesNewOnesUntilRestore(RedisProxy proxy) throws IOException {
        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");

            proxy.refuse();

            assertThatThrownBy(() -> client.send("PING")).isInstanceOfAny(EOFException.class, SocketException.class);
        }
        assertRefusesConnections(proxy.port());

        proxy.restore();

        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void closeFreesThePortResetsConnectionsAndEndsTheProxyThreads(RedisServer redis) throws IOException {
        RedisProxy proxy = RedisProxy.to(redis);
        int port = proxy.port();
        try (RespConnection client = open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");
            assertThat(proxyThreads(port)).isNotEmpty().allMatch(Thread::isDaemon);

            proxy.close();
            proxy.close();

            assertThatThrownBy(() -> client.send("PING")).isInstanceOfAny(EOFException.class, SocketException.class);
        }
        assertRefusesConnections(port);
        assertThat(proxy.openConnections()).isZero();
        assertThat(proxyThreads(port)).isEmpty();
        assertThatThrownBy(proxy::cut).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void proxiesStartedSideBySideGetTheirOwnPorts(RedisServer redis) {
        try (RedisProxy first = RedisProxy.to(redis);
                RedisProxy second = RedisProxy.to(redis)) {
            assertThat(first.port()).isNotEqualTo(second.port());
        }
    }

    @Test
    void uriCarriesTheServersCredentialsButToStringDoesNot() {
        try (RedisServer secured = RedisServer.atAddress("redis://app:s3cret@127.0.0.1:1", "a test");
                RedisProxy proxy = RedisProxy.to(secured)) {
            assertThat(proxy.uri()).isEqualTo("redis://app:s3cret@127.0.0.1:" + proxy.port());
            assertThat(proxy.toString()).doesNotContain("s3cret").contains("forwarding");
        }
    }

    static RespConnection open(RedisProxy proxy) throws IOException {
        return RespConnection.open(proxy.host(), proxy.port());
    }

    /**
     * Nothing listens on {@code port}. A free loopback port lies in the ephemeral range, where Linux may now and then
     * connect a socket to itself (its own source port chosen equal to the port it calls: a TCP simultaneous open);
     * such a connection says nothing about the proxy, so it is tried again.
     */
    static void assertRefusesConnections(int port) {
        for (int attempt = 0; attempt < 5; attempt++) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                assertThat(socket.getLocalPort())
                        .as("a connection to %d was accepted by a listener, not by itself", port)
                        .isEqualTo(port);
            } catch (ConnectException refused) {
                return;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        throw new AssertionError("port " + port + " connected to itself five times in a row");
    }

    private static List<Thread> proxyThreads(int port) {
        String prefix = "padlock-redis-proxy-" + port + "-";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(prefix) && thread.isAlive())
                .toList();
    }
}
