package dev.padlock.quarkus.deployment;

import dev.padlock.core.config.ConfigKeys;
import dev.padlock.quarkus.PadlockBuildTimeConfig;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.devservices.common.ContainerAddress;
import io.quarkus.devservices.common.ContainerLocator;
import io.quarkus.runtime.LaunchMode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Gives dev mode and tests a Redis when none is configured: a shared container, a new container, or a local
 * {@code redis-server} process, in that order (see {@link DevServicesPlan}).
 */
@BuildSteps(onlyIfNot = IsNormal.class, onlyIf = DevServicesConfig.Enabled.class)
class PadlockDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(PadlockDevServicesProcessor.class);

    private static final List<String> PADLOCK_CONNECTION_KEYS = List.of(
            ConfigKeys.REDIS_ADDRESS, ConfigKeys.REDIS_MODE, ConfigKeys.REDIS_NODES, ConfigKeys.REDIS_CONFIG_FILE);

    /** The Quarkus Redis client's own Dev Service label, whose containers Padlock can share too. */
    static final String QUARKUS_REDIS_LABEL = "quarkus-dev-service-redis";

    /** What decides whether a running Dev Service can be reused across live reloads. */
    record ServiceConfig(
            String image,
            Optional<Integer> port,
            boolean shared,
            String serviceName,
            Map<String, String> env,
            Optional<String> redisServer) {}

    @BuildStep
    void devServices(
            PadlockBuildTimeConfig buildConfig,
            LaunchModeBuildItem launchMode,
            DockerStatusBuildItem docker,
            Capabilities capabilities,
            BuildProducer<DevServicesResultBuildItem> services) {
        PadlockBuildTimeConfig.DevServices dev = buildConfig.devservices();
        Config config = ConfigProvider.getConfig();
        boolean devMode = launchMode.getLaunchMode() == LaunchMode.DEVELOPMENT;
        Optional<Path> binary = redisServer(dev);

        DevServicesPlan.Choice choice = DevServicesPlan.decide(new DevServicesPlan.Inputs(
                PADLOCK_CONNECTION_KEYS.stream().anyMatch(k -> present(config, k)),
                present(config, "quarkus.redis.hosts") || quarkusRedisDevServiceRuns(capabilities, config),
                dev.enabled(),
                devMode,
                dev.shared(),
                docker::isContainerRuntimeAvailable,
                () -> sharedContainer(dev, launchMode).isPresent(),
                binary.isPresent()));
        LOG.debugf("Padlock Dev Services: %s", choice);

        switch (choice) {
            case CONFIGURED:
            case BRIDGE_QUARKUS_REDIS:
                return;
            case DISABLED:
            case FAIL:
                throw new IllegalStateException(DevServicesPlan.noRedisMessage(choice));
            case REUSE_SHARED_CONTAINER:
                ContainerAddress shared = sharedContainer(dev, launchMode).orElseThrow();
                LOG.infof(
                        "Padlock Dev Services reuse the shared Redis container %s at %s",
                        shared.getId(), shared.getUrl());
                services.produce(DevServicesResultBuildItem.discovered()
                        .feature(PadlockProcessor.FEATURE)
                        .containerId(shared.getId())
                        .config(Map.of(ConfigKeys.REDIS_ADDRESS, "redis://" + shared.getUrl()))
                        .build());
                return;
            case START_CONTAINER:
                services.produce(DevServicesResultBuildItem.owned()
                        .feature(PadlockProcessor.FEATURE)
                        .serviceName(dev.serviceName())
                        .serviceConfig(serviceConfig(dev))
                        .startable(() -> new RedisContainerService(
                                dev.imageName(),
                                dev.port(),
                                dev.shared() && devMode,
                                dev.serviceName(),
                                dev.containerEnv()))
                        .configProvider(Map.of(ConfigKeys.REDIS_ADDRESS, RedisContainerService::getConnectionInfo))
                        .build());
                return;
            case START_PROCESS:
            default:
                services.produce(DevServicesResultBuildItem.owned()
                        .feature(PadlockProcessor.FEATURE)
                        .serviceName(dev.serviceName())
                        .serviceConfig(serviceConfig(dev))
                        .startable(() -> new RedisProcessService(binary))
                        .configProvider(Map.of(ConfigKeys.REDIS_ADDRESS, RedisProcessService::getConnectionInfo))
                        .build());
        }
    }

    private static ServiceConfig serviceConfig(PadlockBuildTimeConfig.DevServices dev) {
        return new ServiceConfig(
                dev.imageName(),
                dev.port().isPresent() ? Optional.of(dev.port().getAsInt()) : Optional.empty(),
                dev.shared(),
                dev.serviceName(),
                Map.copyOf(dev.containerEnv()),
                dev.redisServer());
    }

    private static boolean present(Config config, String key) {
        return config.getOptionalValue(key, String.class)
                .filter(v -> !v.isBlank())
                .isPresent();
    }

    /** The Quarkus Redis client starts its own Dev Service unless disabled; Padlock then bridges to it. */
    private static boolean quarkusRedisDevServiceRuns(Capabilities capabilities, Config config) {
        return capabilities.isPresent(Capability.REDIS_CLIENT)
                && config.getOptionalValue("quarkus.redis.devservices.enabled", Boolean.class)
                        .orElse(true);
    }

    private static Optional<ContainerAddress> sharedContainer(
            PadlockBuildTimeConfig.DevServices dev, LaunchModeBuildItem launchMode) {
        for (String label : List.of(RedisContainerService.LABEL, QUARKUS_REDIS_LABEL)) {
            Optional<ContainerAddress> found = new ContainerLocator(label, RedisContainerService.REDIS_PORT)
                    .locateContainer(dev.serviceName(), dev.shared(), launchMode.getLaunchMode());
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** The configured binary, else {@code redis-server} on the PATH. */
    private static Optional<Path> redisServer(PadlockBuildTimeConfig.DevServices dev) {
        if (dev.redisServer().isPresent()) {
            Path configured = Path.of(dev.redisServer().get());
            if (!Files.isExecutable(configured)) {
                throw new IllegalStateException("Invalid quarkus.padlock.devservices.redis-server: '" + configured
                        + "' is not an executable file. Point it at redis-server, or remove it to use the PATH.");
            }
            return Optional.of(configured);
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
