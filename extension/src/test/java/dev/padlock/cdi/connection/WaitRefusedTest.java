package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A server that does not let Padlock's user run {@code WAIT} (an ACL without it, as some managed services set up), on
 * a master with a replica: Redisson sends {@code WAIT} after every lock script there, so every acquisition fails.
 * Padlock's server check says so once, as its client connects, naming the fix; once the user may run it, nothing is
 * said and locks work.
 */
class WaitRefusedTest {

    @ApplicationScoped
    public static class Work {
        @Locked(value = "wait-refused", waitTime = "1s")
        public String run() {
            return "ran";
        }
    }

    @Test
    void aServerThatRefusesWaitIsReportedAtStartUpWithTheFix() throws Exception {
        try (RedisServer master = Redis.startServer();
                RedisServer replica = Redis.startServer()) {
            replicate(master, replica);
            // Else the server check also warns that the master grants locks with no replica connected.
            master.command("CONFIG", "SET", "min-replicas-to-write", "1");
            master.command("ACL", "SETUSER", "default", "-wait");
            List<String> warnings = new CopyOnWriteArrayList<>();
            Logger logger = Logger.getLogger("dev.padlock.core.server.ServerFindings");
            Handler handler = new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                        warnings.add(record.getMessage());
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };
            logger.addHandler(handler);
            try {
                try (Deployment app = Deployment.start(config(master, replica), Work.class)) {
                    assertThatThrownBy(() -> app.bean(Work.class).run()).isInstanceOf(LockNotAcquiredException.class);
                    Waits.until(() -> !warnings.isEmpty(), "a warning about WAIT");
                    assertThat(warnings)
                            .singleElement()
                            .asString()
                            .contains("NOPERM", "ACL SETUSER <user> +wait")
                            .doesNotContain("channel:");
                }
                master.command("ACL", "SETUSER", "default", "+wait");
                warnings.clear();
                try (Deployment app = Deployment.start(config(master, replica), Work.class)) {
                    assertThat(app.bean(Work.class).run()).isEqualTo("ran");
                }
                assertThat(warnings).as("nothing to say once WAIT is allowed").isEmpty();
            } finally {
                logger.removeHandler(handler);
            }
        }
    }

    private static void replicate(RedisServer master, RedisServer replica) {
        replica.command("REPLICAOF", master.host(), String.valueOf(master.port()));
        Waits.until(
                () -> String.valueOf(master.command("INFO", "replication")).contains("state=online"),
                "the replica online");
    }

    private static Map<String, String> config(RedisServer master, RedisServer replica) {
        Map<String, String> config = new HashMap<>();
        config.put("padlock.redis.mode", "replicated");
        config.put("padlock.redis.nodes", master.uri() + "," + replica.uri());
        return config;
    }
}
