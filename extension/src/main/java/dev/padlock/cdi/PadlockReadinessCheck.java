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

    /** The client Padlock locks with, Padlock's own or the application's (a bean the extension adds). */
    @Inject
    RedisReachability reachability;

    @Override
    public HealthCheckResponse call() {
        RedisReachability.Result result = reachability.check();
        return new HealthCheckResponse(
                RedisReachability.CHECK_NAME,
                result.up() ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                Optional.of(result.data()));
    }
}
