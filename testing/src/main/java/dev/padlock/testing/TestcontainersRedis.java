package dev.padlock.testing;

import dev.padlock.redisserver.Reaper;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Every reference to Testcontainers lives here, so that this optional dependency is only loaded
 * when neither an address nor a redis-server binary is available.
 */
final class TestcontainersRedis {
    private static final int REDIS_PORT = 6379;

    private TestcontainersRedis() {}

    static boolean runtimeAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static RedisServer start(String image) {
        GenericContainer<?> container =
                new GenericContainer<>(DockerImageName.parse(image)).withExposedPorts(REDIS_PORT);
        Reaper.Reapable reapable = container::stop;
        Reaper.register(reapable);
        try {
            container.start();
        } catch (RuntimeException e) {
            Reaper.unregister(reapable);
            container.stop();
            throw e;
        }
        return RedisServer.inContainer(container.getHost(), container.getMappedPort(REDIS_PORT), image, () -> {
            Reaper.unregister(reapable);
            container.stop();
        });
    }
}
