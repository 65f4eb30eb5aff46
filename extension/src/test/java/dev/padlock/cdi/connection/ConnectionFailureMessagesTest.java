package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import dev.padlock.testing.ServerOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three most common reasons a deployment cannot reach Redis, as its user meets them: the start-up WARN line,
 * the {@code LockNotAcquiredException} of a locked call and the readiness check each name the cause Redis gave and
 * the key to check, and none shows the password.
 */
class ConnectionFailureMessagesTest {

    static final String DEFAULT_SECRET = "default-S3cret";
    static final String APP_SECRET = "app-S3cret";
    static final String WRONG_SECRET = "wr0ng-S3cret";

    /** Wants a password for its default user, and has an ACL user "app". */
    static RedisServer guarded;

    @ApplicationScoped
    public static class Job {
        @Locked(value = "job", waitTime = "0")
        public String run() {
            return "ran";
        }
    }

    @BeforeAll
    static void startGuardedRedis() {
        guarded = Redis.startServer(
                ServerOptions.defaults().requirePass(DEFAULT_SECRET).user("app", APP_SECRET));
    }

    @AfterAll
    static void stopGuardedRedis() {
        if (guarded != null) {
            guarded.close();
        }
    }

    @Test
    void aWrongPasswordIsNamedWrongpassWithTheCredentialKeys() {
        Seen seen = deployAndCall(Map.of(
                "padlock.redis.address",
                guarded.uri(),
                "padlock.redis.username",
                "app",
                "padlock.redis.password",
                WRONG_SECRET));

        seen.allSay(
                "Redis refused the username or password (WRONGPASS",
                "Check padlock.redis.username and padlock.redis.password");
    }

    @Test
    void noPasswordForAPasswordProtectedRedisIsNamedNoauthWithThePasswordKey() {
        Seen seen = deployAndCall(Map.of("padlock.redis.address", guarded.uri()));

        seen.allSay("Redis requires a password, and none was sent (NOAUTH", "Set padlock.redis.password");
    }

    @Test
    void nothingListeningIsNamedARefusedConnectionWithTheAddressKey() {
        Seen seen = deployAndCall(Map.of(
                "padlock.redis.address",
                "redis://app:" + WRONG_SECRET + "@127.0.0.1:" + closedPort(),
                "padlock.redis.password",
                WRONG_SECRET));

        seen.allSay(
                "nothing accepts connections there (Connection refused",
                "Check that Redis runs there and that padlock.redis.address names its host and port");
    }

    /**
     * Everything the failure shows a user: the exception of a locked call with its whole chain, the start-up WARN
     * line, and the readiness reason.
     */
    private record Seen(LockNotAcquiredException call, String chain, String warning, String readiness) {
        void allSay(String cause, String fix) {
            assertThat(call.getMessage()).contains("no connection to Redis could be made: " + cause, fix);
            assertThat(warning)
                    .startsWith("Padlock could not connect to Redis (")
                    .contains(cause, fix, "Locked calls fail with LockNotAcquiredException until it can");
            assertThat(readiness).contains(cause, fix);
            for (String shown : List.of(chain, warning, readiness)) {
                assertThat(shown).doesNotContain(WRONG_SECRET, APP_SECRET, DEFAULT_SECRET);
            }
        }
    }

    private static Seen deployAndCall(Map<String, String> config) {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger padlock = Logger.getLogger("dev.padlock");
        padlock.addHandler(handler);
        try (Deployment app = Deployment.start(config, Job.class)) {
            Throwable thrown = catchThrowable(() -> app.bean(Job.class).run());
            assertThat(thrown).isInstanceOf(LockNotAcquiredException.class);
            String warning = await("the start-up WARN line", () -> records.stream()
                    .filter(r -> r.getLevel() == Level.WARNING)
                    .map(LogRecord::getMessage)
                    .findFirst()
                    .orElse(null));
            String readiness = await("a readiness reason other than connecting", () -> {
                HealthCheckResponse response =
                        app.bean(HealthCheck.class, Readiness.Literal.INSTANCE).call();
                Object reason = response.getData().orElseThrow().get("reason");
                return reason == null || "connecting".equals(reason) ? null : reason.toString();
            });
            return new Seen((LockNotAcquiredException) thrown, chain(thrown), warning, readiness);
        } finally {
            padlock.removeHandler(handler);
        }
    }

    private static String await(String what, Supplier<String> probe) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String value = probe.get();
        while (value == null) {
            assertThat(System.nanoTime()).as("%s within 60 s", what).isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            value = probe.get();
        }
        return value;
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
