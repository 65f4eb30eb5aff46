package dev.padlock.redisserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServerProcessTest {
    private final RedisBinary binary = TestBinary.find();

    /** What Dev Services rely on: a server that answers at its uri, and nothing left of it after close. */
    @Test
    void standaloneServerAnswersAtItsUriAndCloseLeavesNothingBehind() throws IOException {
        ServerProcess redis = ServerProcess.startStandalone(binary);
        long pid = redis.pid();
        Path directory = redis.directory();
        try {
            assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
            assertThat(RespConnection.call(ServerProcess.HOST, redis.port(), "PING"))
                    .isEqualTo("PONG");
            assertThat(RespConnection.call(ServerProcess.HOST, redis.port(), "CONFIG", "GET", "save"))
                    .as("no snapshots")
                    .isEqualTo(List.of("save", ""));
        } finally {
            redis.close();
        }
        redis.close();

        assertThat(isAlive(pid)).isFalse();
        assertThat(RespConnection.accepts(ServerProcess.HOST, redis.port())).isFalse();
        assertThat(directory).doesNotExist();
    }

    /** CI tells a build's leftovers from other builds' servers by this parent: the named watcher of this JVM. */
    @Test
    void serverRunsUnderAWatcherNamedWithTheJvmsPid() {
        try (ServerProcess redis = ServerProcess.startStandalone(binary)) {
            ProcessHandle parent =
                    ProcessHandle.of(redis.pid()).flatMap(ProcessHandle::parent).orElseThrow();

            assertThat(String.join(" ", parent.info().arguments().orElseThrow()))
                    .contains(ServerProcess.WATCHER_NAME + " "
                            + ProcessHandle.current().pid() + " " + redis.directory());
        }
    }

    @Test
    void startupFailureSaysWhatExitedAndShowsTheEndOfItsOutput() {
        ServerProcess process = new ServerProcess(binary, "misconfigured redis-server", false, (port, dir) -> {
            List<String> args = new ArrayList<>(binary.standaloneArguments(port, dir));
            args.addAll(List.of("--no-such-directive", "x"));
            return args;
        });
        Path directory = process.directory();
        try {
            process.launch();

            assertThatThrownBy(process::awaitLaunched)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("misconfigured redis-server exited with status")
                    .hasMessageContaining("--- last lines of")
                    .hasMessageContaining("no-such-directive");
        } finally {
            process.close();
        }
        assertThat(directory).doesNotExist();
    }

    @Test
    void serverThatLosesThePortRaceMovesToAnotherPort() throws IOException {
        try (ServerSocket squatter = new ServerSocket()) {
            squatter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int taken = squatter.getLocalPort();
            AtomicInteger preparations = new AtomicInteger();
            ServerProcess process = new ServerProcess(binary, "redis-server", false, (port, dir) -> {
                // The first attempt is made to collide, as if another process had bound the port first.
                int actual = preparations.getAndIncrement() == 0 ? taken : port;
                return binary.standaloneArguments(actual, dir);
            });
            try {
                process.launch();
                process.awaitLaunched();

                assertThat(preparations).hasValue(2);
                assertThat(process.port()).isNotEqualTo(taken);
                assertThat(process.isRunning()).isTrue();
                assertThat(RespConnection.call(ServerProcess.HOST, process.port(), "PING"))
                        .isEqualTo("PONG");
            } finally {
                process.close();
            }
        }
    }

    @Test
    void redisServerDiesWhenTheJvmThatStartedItIsKilled() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        if (System.getProperty(TestBinary.PROPERTY) != null) {
            command.add("-D" + TestBinary.PROPERTY + "=" + System.getProperty(TestBinary.PROPERTY));
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
            assertThat(RespConnection.accepts(ServerProcess.HOST, port)).isFalse();
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

    @Test
    void timeoutNamesWhatWasAwaitedAndAddsTheDiagnostics() {
        assertThatThrownBy(() -> Wait.until(
                        "the answer", Duration.ofMillis(60), () -> null, () -> "--- last lines of some.log ---"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Timed out after 60 ms waiting for the answer")
                .hasMessageContaining("--- last lines of some.log ---");
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
}
