package dev.padlock.cdi.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Deployment;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

/**
 * The server check runs again after every reconnect, since the server that answers may not be the one checked: here
 * the same server, made unsafe while Padlock was connected (an evicting policy set, as a managed service's parameter
 * group would), is found so once its connections dropped and came back. Without the check after a reconnect, readiness
 * stayed up for the 30 s the test waits. (Redisson also reports a connection of its pool that it closed and opened
 * again, so a check may run more often than after a reconnect; nothing here relies on it not running.)
 */
class CheckedAgainAfterReconnectTest {

    @Test
    void aServerMadeUnsafeIsFoundSoWhenPadlockReconnects() throws Exception {
        try (RedisServer redis = Redis.startServer();
                PadlockLog log = new PadlockLog()) {
            redis.command("CONFIG", "SET", "maxmemory", "0");
            try (Deployment app = Deployment.start(
                    Map.of("padlock.redis.address", redis.uri(), "padlock.redis.unsafe-server", "not-ready"),
                    EvictingServerTest.Holder.class)) {
                ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app), r -> r.getStatus() == Status.UP);
                redis.command("CONFIG", "SET", "maxmemory", "64mb");
                redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");

                redis.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");

                HealthCheckResponse down = ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app), r -> r.getStatus() == Status.DOWN);
                assertThat(String.valueOf(down.getData().orElseThrow().get("findings")))
                        .contains("maxmemory-policy")
                        .contains("volatile-lru");
                assertThat(log.serverCheck()).anyMatch(line -> line.contains("volatile-lru"));
            }
        }
    }
}
