package dev.padlock.cdi.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An application that produces its own RedissonClient keeps it: Padlock locks through it and creates none.
 * Padlock's own address points at a closed port, so a second client would fail the call. The application's client
 * reads its address from its own key, {@code app.redis}.
 */
@ExtendWith(RedisExtension.class)
class ApplicationClientTest {

    @ApplicationScoped
    public static class ClientProducer {
        @Produces
        @ApplicationScoped
        RedissonClient client() {
            Config config = new Config();
            config.useSingleServer().setAddress(ConfigProvider.getConfig().getValue("app.redis", String.class));
            return Redisson.create(config);
        }

        void close(@Disposes RedissonClient client) {
            client.shutdown();
        }
    }

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("app-client")
        public Object run() {
            return redisson.getKeys().countExists("padlock:app-client");
        }
    }

    @Test
    void locksThroughTheApplicationsClient(RedisServer server) {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", "redis://127.0.0.1:1", "app.redis", server.uri()),
                ClientProducer.class,
                Job.class)) {
            assertThat(app.bean(Job.class).run()).isEqualTo(1L);
        }
    }

    @Test
    void saysAtStartUpWhichOfItsKeysTheApplicationsClientMakesMoot(RedisServer server) {
        String secret = "s3cr3t-Pa55";
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger padlock = Logger.getLogger("dev.padlock");
        padlock.addHandler(capture);
        try (Deployment app = Deployment.start(
                Map.of(
                        "padlock.redis.address",
                        "redis://app:" + secret + "@127.0.0.1:1",
                        "padlock.redis.password",
                        secret,
                        "padlock.watchdog-timeout",
                        "5s",
                        "app.redis",
                        server.uri()),
                ClientProducer.class,
                Job.class)) {
            assertThat(app.bean(Job.class).run()).isEqualTo(1L);
        } finally {
            padlock.removeHandler(capture);
        }
        assertThat(lines)
                .filteredOn(line -> line.contains("ignored"))
                .singleElement()
                .asString()
                .startsWith("INFO Padlock locks through the application's own RedissonClient, so")
                .contains("padlock.redis.address", "padlock.redis.password", "padlock.watchdog-timeout")
                .doesNotContain(secret, "5s", "127.0.0.1");
        assertThat(lines).noneSatisfy(line -> assertThat(line).contains(secret));
    }
}
