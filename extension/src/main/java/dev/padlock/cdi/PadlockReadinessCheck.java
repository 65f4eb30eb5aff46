package dev.padlock.cdi;

import dev.padlock.core.client.RedisReachability;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Padlock's readiness: down while the client it locks with cannot reach Redis, since every locked call would then
 * fail. Added by {@link PadlockExtension} only where MicroProfile Health is present; never loaded elsewhere.
 */
@Readiness
@ApplicationScoped
class PadlockReadinessCheck implements HealthCheck {

    @Inject
    PadlockExtension padlock;

    @Override
    public HealthCheckResponse call() {
        RedisReachability.Result result = padlock.reachability().check();
        return new HealthCheckResponse(
                RedisReachability.CHECK_NAME,
                result.up() ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                Optional.of(result.data()));
    }
}
