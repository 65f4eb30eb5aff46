package dev.padlock.cdi.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.contract.ReadinessContract;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

/**
 * A master with a replica and no {@code min-replicas-to-write}, while locks are confirmed with replicas (the default):
 * with no replica connected the master would go on granting locks, and Redisson, which asks it how many replicas to
 * wait for, would wait for none. The server check calls it unsafe, naming the setting and the fix; with
 * {@code min-replicas-to-write 1}, or with replica confirmation off, it says nothing about it (the controls).
 */
class ReplicasWithoutMinReplicasTest {

    @ApplicationScoped
    public static class Job {
        @Locked("replicated-job")
        public String run() {
            return "ran";
        }
    }

    @Test
    void aMasterThatNeedsNoReplicaIsUnsafeWhileLocksAreConfirmedWithReplicas() {
        try (RedisServer master = Redis.startServer();
                RedisServer replica = Redis.startServer()) {
            replicate(master, replica);
            String node = master.host() + ":" + master.port();

            try (PadlockLog log = new PadlockLog();
                    Deployment app = Deployment.start(config(master, replica, true), Job.class)) {
                HealthCheckResponse down = ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app),
                        r -> r.getData().orElseThrow().containsKey("findings"));
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat(log.serverCheck(Level.WARNING))
                        .singleElement()
                        .asString()
                        .startsWith("Redis master " + node + " has 1 replica(s) and min-replicas-to-write 0")
                        .contains("CONFIG SET min-replicas-to-write 1", "padlock.redis.replica-confirmation=false");
                assertThat(app.bean(Job.class).run()).isEqualTo("ran");
            }

            try (PadlockLog log = new PadlockLog();
                    Deployment app = Deployment.start(config(master, replica, false), Job.class)) {
                awaitChecked(app);
                assertThat(log.serverCheck(Level.WARNING))
                        .as("replica confirmation off: the master's answer alone is intended")
                        .isEmpty();
            }

            master.command("CONFIG", "SET", "min-replicas-to-write", "1");
            try (PadlockLog log = new PadlockLog();
                    Deployment app = Deployment.start(config(master, replica, true), Job.class)) {
                // up once checked and every node answers PING (a replica's connection may come a moment later)
                HealthCheckResponse up = ReadinessContract.awaitResponse(
                        () -> EvictingServerTest.readiness(app),
                        r -> r.getStatus() == Status.UP
                                && r.getData().orElseThrow().containsKey("findings"));
                assertThat(up.getStatus()).as("%s", up.getData()).isEqualTo(Status.UP);
                assertThat(log.serverCheck(Level.WARNING))
                        .as("min-replicas-to-write 1")
                        .isEmpty();
                assertThat(app.bean(Job.class).run()).isEqualTo("ran");
            }
        }
    }

    /** The first answer after the server check ran (the test servers keep no data on disk: a notice says so). */
    private static HealthCheckResponse awaitChecked(Deployment app) {
        return ReadinessContract.awaitResponse(
                () -> EvictingServerTest.readiness(app),
                r -> r.getData().orElseThrow().containsKey("findings"));
    }

    private static void replicate(RedisServer master, RedisServer replica) {
        replica.command("REPLICAOF", master.host(), String.valueOf(master.port()));
        Waits.until(
                () -> String.valueOf(master.command("INFO", "replication")).contains("state=online"),
                "the replica online");
    }

    private static Map<String, String> config(RedisServer master, RedisServer replica, boolean confirm) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.mode", "replicated");
        config.put("padlock.redis.nodes", master.uri() + "," + replica.uri());
        config.put("padlock.redis.replica-confirmation", String.valueOf(confirm));
        config.put("padlock.redis.unsafe-server", "not-ready");
        return config;
    }
}
