package dev.padlock.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An application that produces its own RedissonClient keeps it: Padlock locks through it and creates none.
 * Padlock's own address points at a closed port, so a second client would fail the call.
 */
@ExtendWith(RedisExtension.class)
class ApplicationClientTest {

    static RedisServer redis;

    @ApplicationScoped
    public static class ClientProducer {
        @Produces
        @ApplicationScoped
        RedissonClient client() {
            Config config = new Config();
            config.useSingleServer().setAddress(redis.uri());
            return Redisson.create(config);
        }

        void close(@Disposes RedissonClient client) {
            client.shutdown();
        }
    }

    @ApplicationScoped
    public static class Job {
        @Locked("app-client")
        public Object run() {
            return redis.command("EXISTS", "padlock:app-client");
        }
    }

    @Test
    void locksThroughTheApplicationsClient(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", "redis://127.0.0.1:1"), ClientProducer.class, Job.class)) {
            assertThat(app.bean(Job.class).run()).isEqualTo(1L);
        }
    }
}
