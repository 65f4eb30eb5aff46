package dev.padlock.cdi.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With MicroProfile Health on the class path, the extension adds a {@code @Readiness} check: up with the address
 * while Redis answers, down with a reason when it cannot be reached, and never the password.
 */
@ExtendWith(RedisExtension.class)
class ReadinessCheckTest {

    static final String CONFIGURED_SECRET = "k3y-Pa55word";
    static final String ADDRESS_SECRET = "addr-S3cret";

    @ApplicationScoped
    public static class Job {
        @Locked("job")
        public String run() {
            return "ran";
        }
    }

    @Test
    void upWithTheAddressWhileRedisAnswers(RedisServer redis) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Job.class)) {
            HealthCheckResponse response = awaitResponse(app, r -> r.getStatus() == Status.UP);

            assertThat(response.getName()).isEqualTo("padlock");
            assertThat(response.getData()).hasValue(Map.of("address", "single [" + redis.uri() + "]"));
        }
    }

    @Test
    void downWithAReasonWhenRedisCannotBeReached(RedisProxy proxy) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", proxy.uri()), Job.class)) {
            awaitResponse(app, r -> r.getStatus() == Status.UP);

            proxy.refuse();
            HealthCheckResponse down = check(app);

            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getData().orElseThrow())
                    .containsEntry("address", "single [" + proxy.uri() + "]")
                    .containsKey("reason");
            proxy.restore();
            awaitResponse(app, r -> r.getStatus() == Status.UP);
        }
    }

    @Test
    void neitherPasswordAppearsWhenTheConnectionFails() {
        String address = "redis://app:" + ADDRESS_SECRET + "@127.0.0.1:" + closedPort();
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", address, "padlock.redis.password", CONFIGURED_SECRET), Job.class)) {
            HealthCheckResponse down = awaitResponse(
                    app, r -> !"connecting".equals(r.getData().orElseThrow().get("reason")));

            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(String.valueOf(down.getData().orElseThrow().get("reason")))
                    .contains("nothing accepts connections there", "padlock.redis.address")
                    .doesNotContain("null");
            assertThat(down.getName() + " " + down.getStatus() + " " + down.getData())
                    .contains("redis://***@127.0.0.1:", "(password set)")
                    .doesNotContain(CONFIGURED_SECRET, ADDRESS_SECRET);
        }
    }

    private static HealthCheckResponse check(Deployment app) {
        return app.bean(HealthCheck.class, Readiness.Literal.INSTANCE).call();
    }

    /** Padlock's client connects in the background after deployment; the check says "connecting" until then. */
    private static HealthCheckResponse awaitResponse(Deployment app, Predicate<HealthCheckResponse> expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HealthCheckResponse response = check(app);
        while (!expected.test(response)) {
            assertThat(System.nanoTime())
                    .as("within 30 s; last answer %s %s", response.getStatus(), response.getData())
                    .isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            response = check(app);
        }
        return response;
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
