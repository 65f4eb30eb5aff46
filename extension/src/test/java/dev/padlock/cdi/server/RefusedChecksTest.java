package dev.padlock.cdi.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.logging.Level;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

/**
 * Padlock's user may not read the server's configuration (an ACL user without {@code config|get}, as a managed service
 * hands out): the server check says what it could not check (whether snapshots are saved) and how to allow it, as a
 * WARN and in readiness, which stays up even under {@code not-ready}: only what was found unsafe counts. Locks work.
 * Neither the user's password nor anything the server check says about it appears anywhere.
 */
class RefusedChecksTest {

    static final String SECRET = "acl-Us3r-Pa55";

    @ApplicationScoped
    public static class Job {
        @Locked("refused-checks")
        public String run() {
            return "ran";
        }
    }

    @Test
    void aRefusedConfigGetIsSaidWithTheGrantAndCountsForNothing() {
        try (RedisServer redis = Redis.startServer();
                PadlockLog log = new PadlockLog()) {
            redis.command("ACL", "SETUSER", "locker", "on", ">" + SECRET, "~*", "&*", "+@all", "-config");
            try (Deployment app = Deployment.start(
                    Map.of(
                            "padlock.redis.address",
                            redis.uri(),
                            "padlock.redis.username",
                            "locker",
                            "padlock.redis.password",
                            SECRET,
                            "padlock.redis.unsafe-server",
                            "not-ready"),
                    Job.class)) {
                HealthCheckResponse ready = ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app), r -> r.getStatus() == Status.UP);

                String node = redis.host() + ":" + redis.port();
                assertThat(log.serverCheck(Level.WARNING))
                        .singleElement()
                        .asString()
                        .startsWith("Padlock could not check whether Redis at " + node + " saves snapshots: CONFIG GET"
                                + " save got NOPERM")
                        .contains("Allow Padlock's user to read the configuration (ACL SETUSER <user> +config|get)");
                assertThat(String.valueOf(ready.getData().orElseThrow().get("findings")))
                        .startsWith("WARNING: Padlock could not check whether Redis at " + node + " saves snapshots");
                assertThat(app.bean(Job.class).run()).isEqualTo("ran");
                assertThat(String.valueOf(ready.getData())).doesNotContain(SECRET);
            }
            assertThat(log.all()).doesNotContain(SECRET);
        }
    }
}
