package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * An application that produces its own RedissonClient keeps it: Padlock locks through it and creates none. Padlock's
 * own address points at a closed port, so locking through a client of Padlock's would fail the call; the
 * application's client connects to the runner's Redis ({@value ApplicationUnderTest#REDIS_ADDRESS}). At start-up Padlock says, in one
 * line and without their values, which of its keys that client makes moot.
 */
public abstract class ApplicationClientContract extends Scenario {

    static final String SECRET = "s3cr3t-Pa55";

    public static final ApplicationUnderTest APPLICATION = ApplicationUnderTest.of(ClientProducer.class, Job.class)
            .with("padlock.redis.address", "redis://app:" + SECRET + "@127.0.0.1:1")
            .with("padlock.redis.password", SECRET)
            .with("padlock.watchdog-timeout", "5s");

    @ApplicationScoped
    public static class ClientProducer {
        @Produces
        @ApplicationScoped
        RedissonClient client() {
            Config config = new Config();
            config.useSingleServer()
                    .setAddress(ConfigProvider.getConfig().getValue(ApplicationUnderTest.REDIS_ADDRESS, String.class));
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
        public long heldWhileRunning() {
            return redisson.getKeys().countExists("padlock:app-client");
        }
    }

    @Test
    void locksThroughTheApplicationsClient() {
        assertThat(bean(Job.class).heldWhileRunning()).isEqualTo(1L);
    }

    /**
     * Fails unless Padlock's start-up log ({@code lines}: each its level, a space and its message) says in one INFO
     * line which of its keys the application's client makes moot, naming them without their values.
     */
    public static void checkStartUpLines(List<String> lines) {
        assertThat(lines)
                .filteredOn(line -> line.contains("ignored"))
                .singleElement()
                .asString()
                .startsWith("INFO Padlock locks through the application's own RedissonClient, so")
                .contains("padlock.redis.address", "padlock.redis.password", "padlock.watchdog-timeout")
                .doesNotContain(SECRET, "5s", "127.0.0.1");
        assertThat(lines).noneSatisfy(line -> assertThat(line).contains(SECRET));
    }
}
