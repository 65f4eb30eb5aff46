package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration with a password and each kind of mistake: every deployment error, every exception a call then
 * throws (the whole cause chain) and every log line (java.util.logging, and what Redisson logs through SLF4J to
 * standard error) is searched for the password. It must be nowhere.
 */
@ExtendWith(RedisExtension.class)
class PasswordNeverInStartUpMessagesTest {

    static final String SECRET = "s3cr3t-P@ss";

    @ApplicationScoped
    public static class Job {
        @Locked("job")
        public String run() {
            return "ran";
        }
    }

    @Test
    void noMessageOrLogLineOfABadConfigurationHoldsThePassword(RedisServer redis, @TempDir Path dir) throws Exception {
        Path brokenLine = dir.resolve("broken-line.yaml");
        Files.writeString(
                brokenLine,
                "singleServerConfig:\n  address: \"" + redis.uri() + "\"\n  password: " + SECRET + ": oops\n");
        Path wrongType = dir.resolve("wrong-type.yaml");
        Files.writeString(
                wrongType, "singleServerConfig:\n  address: \"" + redis.uri() + "\"\n  database: " + SECRET + "\n");
        Path unknownName = dir.resolve("unknown-name.yaml");
        Files.writeString(
                unknownName, "singleServerConfig:\n  address: \"" + redis.uri() + "\"\n  passwrd: " + SECRET + "\n");
        String withPassword = "redis://app:" + SECRET + "@";

        Map<String, Map<String, String>> failing = new LinkedHashMap<>();
        failing.put("address without a port", withPassword("padlock.redis.address", withPassword + "redis_master"));
        failing.put("address without a scheme", withPassword("padlock.redis.address", "app:" + SECRET + "@h:1"));
        failing.put("nodes in single mode", withPassword("padlock.redis.nodes", withPassword + "h:1"));
        failing.put(
                "bad nodes",
                withPassword("padlock.redis.mode", "cluster", "padlock.redis.nodes", withPassword + "h, x"));
        failing.put("bad mode", withPassword("padlock.redis.mode", "galaxy"));
        failing.put("bad database", withPassword("padlock.redis.database", "-1"));
        failing.put("YAML error on the password line", Map.of("padlock.redis.config-file", brokenLine.toString()));
        failing.put("password where a number belongs", Map.of("padlock.redis.config-file", wrongType.toString()));
        failing.put("unknown name beside the password", Map.of("padlock.redis.config-file", unknownName.toString()));
        failing.put(
                "file and keys",
                withPassword("padlock.redis.config-file", brokenLine.toString(), "padlock.redis.address", redis.uri()));
        failing.put(
                "bad durations",
                withPassword(
                        "padlock.wait-time", "200000000000d",
                        "padlock.lease-time", "PT0.0004S",
                        "padlock.watchdog-timeout", "10ms",
                        "padlock.locks.\"job\".wait-time", "forever",
                        "padlock.locks.\"job\".lease-time", "0"));

        Map<String, Map<String, String>> starting = new LinkedHashMap<>();
        starting.put("unreachable server", withPassword("padlock.redis.address", withPassword + "127.0.0.1:1"));
        starting.put("server refusing the password", withPassword("padlock.redis.address", redis.uri()));

        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (Capture capture = Capture.start(seen::add)) {
            failing.forEach((scenario, config) -> {
                RuntimeException failure = Deployment.failing(config, Job.class);
                seen.add(scenario + ": " + chain(failure));
            });
            starting.forEach((scenario, config) -> {
                try (Deployment app = Deployment.start(config, Job.class)) {
                    app.bean(Job.class).run();
                    seen.add(scenario + ": the call ran");
                } catch (RuntimeException e) {
                    seen.add(scenario + ": " + chain(e));
                }
            });
        }

        assertThat(seen)
                .as("every scenario reported something")
                .anySatisfy(s -> assertThat(s)
                        .startsWith("YAML error on the password line: ")
                        .contains("line 3"))
                .anySatisfy(s -> assertThat(s).startsWith("bad mode: ").contains("padlock.redis.mode"))
                .anySatisfy(
                        s -> assertThat(s).startsWith("unreachable server: ").contains("LockNotAcquired"))
                .anySatisfy(s -> assertThat(s)
                        .startsWith("server refusing the password: ")
                        .contains("LockNotAcquired"))
                .allSatisfy(s -> assertThat(s).doesNotContain(SECRET));
    }

    private static Map<String, String> withPassword(String... keysAndValues) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.password", SECRET);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            config.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return config;
    }

    /** Everything a developer could see of a failure: each cause and suppressed one, and the stack trace text. */
    private static String chain(Throwable failure) {
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        failure.printStackTrace(new PrintStream(trace, true, StandardCharsets.UTF_8));
        StringBuilder all = new StringBuilder(trace.toString(StandardCharsets.UTF_8));
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append('\n').append(t);
            for (Throwable s : t.getSuppressed()) {
                all.append('\n').append(chain(s));
            }
        }
        return all.toString();
    }

    /**
     * Every java.util.logging record at any level, formatted with its exception, and whatever is written to
     * standard error (SLF4J's simple logger, which Redisson logs through in these tests).
     */
    static final class Capture extends Handler implements AutoCloseable {
        private final Logger root = Logger.getLogger("");
        private final Level rootLevel = root.getLevel();
        private final PrintStream err = System.err;
        private final ByteArrayOutputStream errCopy = new ByteArrayOutputStream();
        private final Consumer<String> sink;
        private final SimpleFormatter formatter = new SimpleFormatter();

        private Capture(Consumer<String> sink) {
            this.sink = sink;
            setLevel(Level.ALL);
            root.setLevel(Level.ALL);
            root.addHandler(this);
            System.setErr(new PrintStream(new Tee(err, errCopy), true, StandardCharsets.UTF_8));
        }

        static Capture start(Consumer<String> sink) {
            return new Capture(sink);
        }

        @Override
        public synchronized void publish(LogRecord record) {
            sink.accept("log: " + formatter.format(record));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            root.removeHandler(this);
            root.setLevel(rootLevel);
            System.setErr(err);
            sink.accept("stderr: " + errCopy.toString(StandardCharsets.UTF_8));
        }
    }

    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
