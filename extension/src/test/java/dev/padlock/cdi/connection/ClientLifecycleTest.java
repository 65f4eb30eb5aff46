package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;

@ExtendWith(RedisExtension.class)
class ClientLifecycleTest {

    @ApplicationScoped
    public static class Job {
        @Locked("lifecycle")
        public String run() {
            return "ran";
        }
    }

    @Test
    void theClientPadlockCreatedIsShutDownWithTheContainer(RedisServer redis) {
        RedissonClient client;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Job.class)) {
            assertThat(app.bean(Job.class).run()).isEqualTo("ran");
            client = app.bean(RedissonClient.class);
            assertThat(client.isShutdown()).isFalse();
        }
        assertThat(client.isShutdown()).isTrue();
    }

    @Test
    void aPasswordProtectedServerIsReached(RedisServer redis) {
        redis.command("CONFIG", "SET", "requirepass", "pw-4-test");
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.redis.password", "pw-4-test"), Job.class)) {
            assertThat(app.bean(Job.class).run()).isEqualTo("ran");
        } finally {
            redis.restart(); // a fresh process forgets requirepass
        }
    }

    @Test
    void anUnreachableRedisFailsClosed() {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", "redis://127.0.0.1:1"), Job.class)) {
            Job job = app.bean(Job.class);
            assertThat(org.assertj.core.api.Assertions.catchThrowable(job::run))
                    .isInstanceOf(LockNotAcquiredException.class)
                    .hasMessageContaining("no connection to Redis");
        }
    }
}
