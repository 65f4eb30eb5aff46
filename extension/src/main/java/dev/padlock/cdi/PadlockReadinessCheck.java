package dev.padlock.cdi;

import dev.padlock.core.client.RedisReachability;
import dev.padlock.core.server.ServerFindings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Padlock's readiness: down while the client it locks with cannot reach Redis, since every locked call would then
 * fail, and, where {@code padlock.redis.unsafe-server} says so, while the server can void locks; the server check's
 * findings are shown either way. Added by {@link PadlockExtension} only where MicroProfile Health is present; never
 * loaded elsewhere.
 */
@Readiness
@ApplicationScoped
class PadlockReadinessCheck implements HealthCheck {

    /** The client Padlock locks with, Padlock's own or the application's (a bean the extension adds). */
    @Inject
    RedisReachability reachability;

    /** What the server check found (a bean the extension adds). */
    @Inject
    ServerFindings findings;

    @Override
    public HealthCheckResponse call() {
        ServerFindings.Readiness result = findings.readiness(reachability.check());
        return new HealthCheckResponse(
                RedisReachability.CHECK_NAME,
                result.up() ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                Optional.of(result.data()));
    }
}
