package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.client.RedisReachability;
import dev.padlock.core.server.ServerFindings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Padlock's readiness on Quarkus: down while the client it locks with cannot reach Redis, since every locked call
 * would then fail, and, where {@code padlock.redis.unsafe-server} says so, while the server can void locks; the server
 * check's findings are shown either way. A bean only when the build offers it to SmallRye Health ({@code quarkus.padlock.health.enabled})
 * and the application has that extension.
 */
@Readiness
@ApplicationScoped
class PadlockReadinessCheck implements HealthCheck {

    @Inject
    PadlockRuntime padlock;

    @Override
    public HealthCheckResponse call() {
        ServerFindings.Readiness result = padlock.readiness();
        return new HealthCheckResponse(
                RedisReachability.CHECK_NAME,
                result.up() ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                Optional.of(result.data()));
    }
}
