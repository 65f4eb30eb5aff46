package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;

@ExtendWith(RedisExtension.class)
class ReleaseOnEveryExitTest {

    @ApplicationScoped
    public static class Jobs {
        @Inject
        Jobs self;

        @Inject
        RedissonClient redisson;

        @Locked("job")
        public long returnsWhileHeld() {
            return redisson.getKeys().countExists("padlock:job");
        }

        @Locked("job")
        public void fails() {
            assertThat(redisson.getKeys().countExists("padlock:job")).isEqualTo(1L);
            throw new IllegalStateException("boom");
        }

        @Locked("job")
        public void failsChecked() throws Exception {
            throw new java.io.IOException("checked boom");
        }

        @Locked(value = "job", waitTime = "0")
        public String reenters() {
            return self.inner();
        }

        @Locked(value = "job", waitTime = "0")
        public String inner() {
            return "inner ran under the same thread's lock";
        }
    }

    @Test
    void releasesAfterReturnAndAfterExceptions(RedisServer server) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Jobs.class)) {
            Jobs jobs = app.bean(Jobs.class);

            assertThat(jobs.returnsWhileHeld())
                    .as("key exists inside the method")
                    .isEqualTo(1L);
            assertThat(server.command("EXISTS", "padlock:job")).isEqualTo(0L);

            assertThatThrownBy(jobs::fails)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("boom");
            assertThat(server.command("EXISTS", "padlock:job")).isEqualTo(0L);

            assertThatThrownBy(jobs::failsChecked).isInstanceOf(java.io.IOException.class);
            assertThat(server.command("EXISTS", "padlock:job")).isEqualTo(0L);
        }
    }

    @Test
    void aNestedCallOfTheSameThreadReentersAndReleasesFully(RedisServer server) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Jobs.class)) {
            assertThat(app.bean(Jobs.class).reenters()).startsWith("inner ran");
            assertThat(server.command("EXISTS", "padlock:job")).isEqualTo(0L);
        }
    }
}
