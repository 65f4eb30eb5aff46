package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

    @Test
    void redisServerDiesWhenTheJvmThatStartedItIsKilled() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        for (String property : List.of(RedisSource.ADDRESS_PROPERTY, RedisSource.BINARY_PROPERTY)) {
            if (System.getProperty(property) != null) {
                command.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        command.add(OrphanedServer.class.getName());
        Process jvm = new ProcessBuilder(command).redirectErrorStream(true).start();
        long redisPid = -1;
        try {
            BufferedReader output =
                    new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            String line =
                    CompletableFuture.supplyAsync(() -> readStartedLine(output)).get(30, TimeUnit.SECONDS);
            String[] parts = line.split(" ");
            redisPid = Long.parseLong(parts[1]);
            int port = Integer.parseInt(parts[2]);
            Path directory = Path.of(parts[3]);
            assertThat(isAlive(redisPid)).isTrue();

            jvm.destroyForcibly().waitFor(20, TimeUnit.SECONDS);

            long pid = redisPid;
            Wait.until(
                    "the redis-server of a SIGKILLed JVM to be killed by its watcher",
                    () -> isAlive(pid) ? null : Boolean.TRUE,
                    () -> "");
            assertRefusesConnections(port);
            Wait.until(
                    "the watcher to remove the orphaned server's directory",
                    () -> Files.exists(directory) ? null : Boolean.TRUE,
                    () -> "");
        } finally {
            jvm.destroyForcibly();
            if (redisPid > 0) {
                ProcessHandle.of(redisPid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static String readStartedLine(BufferedReader output) {
        try {
            StringBuilder seen = new StringBuilder();
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith(OrphanedServer.STARTED)) {
                    return line;
                }
                seen.append(line).append('\n');
            }
            throw new IllegalStateException("The child JVM ended without starting Redis:\n" + seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static void assertRefusesConnections(int port) {
        RedisProxyTest.assertRefusesConnections(port);
    }
}
