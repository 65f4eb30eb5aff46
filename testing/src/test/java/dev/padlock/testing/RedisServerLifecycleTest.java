package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.redisserver.RespConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each test owns its server: these tests take servers down on purpose. */
class RedisServerLifecycleTest {

    @Test
    void killRefusesConnectionsAndStartComesBackOnTheSamePortWithNoData() {
        try (RedisServer redis = Redis.startServer()) {
            int port = redis.port();
            long pid = redis.pid();
            redis.command("SET", "survivor", "no");

            redis.kill();

            assertThat(redis.isRunning()).isFalse();
            assertThat(isAlive(pid)).isFalse();
            assertRefusesConnections(port);

            redis.start();

            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.pid()).isNotEqualTo(pid);
            assertThat(redis.command("PING")).isEqualTo("PONG");
            assertThat(redis.command("GET", "survivor")).isNull();
        }
    }

    @Test
    void stopRefusesConnectionsAndStartComesBackOnTheSamePortWithNoData() {
        try (RedisServer redis = Redis.startServer()) {
            int port = redis.port();
            long pid = redis.pid();
            redis.command("SET", "survivor", "no");

            redis.stop();

            assertThat(redis.isRunning()).isFalse();
            assertThat(isAlive(pid)).isFalse();
            assertRefusesConnections(port);

            redis.start();

            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.isRunning()).isTrue();
            assertThat(redis.command("GET", "survivor")).isNull();
        }
    }

    @Test
    void restartComesBackOnTheSamePortWithNoDataAndANewProcess() {
        try (RedisServer redis = Redis.startServer()) {
            int port = redis.port();
            long pid = redis.pid();
            redis.command("SET", "survivor", "no");

            redis.restart();

            assertThat(isAlive(pid)).isFalse();
            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.pid()).isNotEqualTo(pid);
            assertThat(redis.command("DBSIZE")).isEqualTo(0L);
        }
    }

    @Test
    void startAndStopAreNoOpsWhenAlreadyInThatState() {
        try (RedisServer redis = Redis.startServer()) {
            long pid = redis.pid();

            redis.start();
            assertThat(redis.pid()).isEqualTo(pid);

            redis.stop();
            redis.stop();
            redis.kill();
            assertThat(redis.isRunning()).isFalse();
        }
    }

    @Test
    void closeEndsTheProcessAndRemovesItsDirectory() {
        RedisServer redis = Redis.startServer();
        long pid = redis.pid();
        int port = redis.port();
        Path directory = redis.process().directory();
        assertThat(directory).isDirectory();

        redis.close();
        redis.close();

        assertThat(isAlive(pid)).isFalse();
        assertRefusesConnections(port);
        assertThat(directory).doesNotExist();
        assertThatThrownBy(redis::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeAlsoClosesTheProxiesToTheServer() {
        RedisServer redis = Redis.startServer();
        RedisProxy proxy = RedisProxy.to(redis);

        redis.close();

        assertRefusesConnections(proxy.port());
        assertThatThrownBy(proxy::cut).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> RedisProxy.to(redis))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has been closed");
    }

    @Test
    void proxyReachesTheServerAgainAfterItsRestart() throws IOException {
        try (RedisServer redis = Redis.startServer();
                RedisProxy proxy = RedisProxy.to(redis)) {
            RespConnection before = RespConnection.open(proxy.host(), proxy.port());
            assertThat(before.send("PING")).isEqualTo("PONG");

            redis.restart();

            assertThatThrownBy(() -> before.send("PING")).isInstanceOf(IOException.class);
            before.close();
            try (RespConnection after = RespConnection.open(proxy.host(), proxy.port())) {
                assertThat(after.send("PING")).isEqualTo("PONG");
            }
        }
    }

    @Test
    void externalServerCannotBeControlledAndSaysABinaryIsNeeded() {
        RedisServer external = RedisServer.atAddress("redis://127.0.0.1:1", "-Dpadlock.test.redis");

        assertThat(external.isControllable()).isFalse();
        assertThat(external.uri()).isEqualTo("redis://127.0.0.1:1");
        assertThat(external.isRunning()).isFalse();
        for (Runnable operation :
                List.<Runnable>of(external::stop, external::kill, external::start, external::restart, external::pid)) {
            assertThatThrownBy(operation::run)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("needs a redis-server binary");
        }
        external.close();
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static void assertRefusesConnections(int port) {
        RedisProxyTest.assertRefusesConnections(port);
    }
}
