package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** padlock.redis.config-file: a full Redisson YAML describes the connection. */
@ExtendWith(RedisExtension.class)
class ConfigFileTest {

    static RedisServer redis;

    @ApplicationScoped
    public static class Job {
        @Locked("from-yaml")
        public Object run() {
            return redis.command("INFO", "keyspace");
        }
    }

    @Test
    void locksWithTheConnectionTheYamlFileDescribes(RedisServer server, @TempDir Path dir) throws Exception {
        redis = server;
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(yaml, "singleServerConfig:\n  address: \"" + server.uri() + "\"\n  database: 3\n");
        try (Deployment app = Deployment.start(Map.of("padlock.redis.config-file", yaml.toString()), Job.class)) {
            assertThat(app.bean(Job.class).run()).asString().contains("db3:keys=1");
            assertThat(server.command("DBSIZE")).isEqualTo(0L);
        }
    }
}
