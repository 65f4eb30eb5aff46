package dev.padlock.cdi.containers;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.Container;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.ContainerRuntime;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;
import org.testcontainers.DockerClientFactory;

/**
 * padlock-testing's container path: {@link Redis#startContainer()} starts {@code redis:7} (or the image
 * {@code -Dpadlock.test.redis-image} names: CI's Valkey run names a Valkey image) through Testcontainers, a Padlock
 * application locks on it, and closing it removes the container.
 */
@ExtendWith(ContainerRuntime.class)
class ContainerRedisTest {

    @ApplicationScoped
    public static class Job {
        @Inject
        RedissonClient redisson;

        @Locked("in-a-container")
        public boolean heldWhileRunning() {
            return redisson.getLock("padlock:in-a-container").isLocked();
        }
    }

    @Test
    void aContainerFromTheHarnessServesALockAndIsRemovedWhenClosed() {
        String id;
        try (RedisServer redis = Redis.startContainer();
                Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Job.class)) {
            Container container = containerPublishing(redis.port());
            id = container.getId();
            assertThat(container.getImage()).as("the container's image").isEqualTo(Redis.containerImage());
            assertThat(app.bean(Job.class).heldWhileRunning())
                    .as("held while the method ran")
                    .isTrue();
            assertThat(app.bean(Job.class).heldWhileRunning())
                    .as("released in between, taken again")
                    .isTrue();
        }
        assertThat(containers()).as("containers after the server was closed").noneMatch(c -> c.getId()
                .equals(id));
    }

    /** The running container that publishes {@code port} on the host. */
    static Container containerPublishing(int port) {
        return containers().stream()
                .filter(c -> Arrays.stream(c.getPorts())
                        .anyMatch(p -> Integer.valueOf(port).equals(p.getPublicPort())))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container publishes port " + port));
    }

    static List<Container> containers() {
        return DockerClientFactory.instance()
                .client()
                .listContainersCmd()
                .withShowAll(true)
                .exec();
    }
}
