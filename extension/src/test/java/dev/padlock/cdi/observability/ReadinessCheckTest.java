package dev.padlock.cdi.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import java.util.function.Predicate;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ReadinessContract} on Weld: with MicroProfile Health on the class path, the extension adds a
 * {@code @Readiness} check: up with the address while Redis answers, down with a reason when it cannot be reached,
 * and never the password.
 */
@ExtendWith(RedisExtension.class)
class ReadinessCheckTest extends ReadinessContract {

    @RegisterExtension
    static final OnWeld onWeld = OnWeld.of(APPLICATION);

    static final String CONFIGURED_SECRET = "k3y-Pa55word";
    static final String ADDRESS_SECRET = "addr-S3cret";

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

    private static HealthCheckResponse awaitResponse(Deployment app, Predicate<HealthCheckResponse> expected) {
        return ReadinessContract.awaitResponse(() -> check(app), expected);
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
