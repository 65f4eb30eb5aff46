package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServerProcessTest {
    private final RedisBinary binary =
            RedisBinary.of(RedisSource.detect(RedisSource.Need.CLUSTER).binary(), "the test's own lookup");

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
                assertThat(RedisServer.of(process).command("PING")).isEqualTo("PONG");
            } finally {
                process.close();
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
}
