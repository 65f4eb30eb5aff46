package dev.padlock.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that stops while Padlock's client is still connecting has nothing to warn about: the attempt ends
 * after the stop, and its failure ("shut down with its container", or the timeout of a Redis that does not answer) is
 * no problem of a running application. Before, it was a WARN, which a later application's log capture in the same JVM
 * caught as its own ({@code LocksLeaseLossTest}). The control: the same attempt of a client that is not closed warns.
 */
@ExtendWith(RedisExtension.class)
class ClientClosedWhileConnectingTest {

    @Test
    void aClientClosedWhileItConnectsLogsNoWarning(RedisProxy proxy, @TempDir Path dir) throws Exception {
        assertThat(warningsOfAnAttempt(proxy, dir, true)).isEmpty();
    }

    @Test
    void controlAClientThatStaysOpenWarnsThatItCouldNotConnect(RedisProxy proxy, @TempDir Path dir) throws Exception {
        assertThat(warningsOfAnAttempt(proxy, dir, false))
                .singleElement()
                .asString()
                .contains("Padlock could not connect to Redis");
    }

    /** Connects in the background to a Redis that does not answer, closing the client at once when {@code close}. */
    private static List<String> warningsOfAnAttempt(RedisProxy proxy, Path dir, boolean close) throws Exception {
        proxy.cut();
        Path file = Files.writeString(
                dir.resolve("redisson.yaml"),
                "singleServerConfig:\n  address: \"" + proxy.uri() + "\"\n  connectTimeout: 300\n  timeout: 300\n"
                        + "  retryAttempts: 0\n");
        Problems problems = new Problems();
        RedisConnectionSettings settings = RedisConnectionReader.read(
                ConfigView.of(Map.of("padlock.redis.config-file", file.toString())), problems);
        assertThat(problems.list()).isEmpty();
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(ManagedClient.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(capture);
        ManagedClient client = new ManagedClient(settings, ClientClosedWhileConnectingTest.class.getClassLoader());
        try {
            client.connectInBackground();
            if (close) {
                client.close();
            }
            // the attempt ends once Redisson gives up on the silent server (a few hundred milliseconds)
            for (int i = 0; i < 1000 && connecting(); i++) {
                Thread.sleep(10);
            }
            assertThat(connecting())
                    .as("the connection attempt ended within 10 s")
                    .isFalse();
            return warnings; // a warning is logged by the connecting thread, as its attempt ends
        } finally {
            client.close();
            logger.removeHandler(capture);
        }
    }

    private static boolean connecting() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("padlock-redis-connect") && t.isAlive());
    }
}
