package dev.padlock.quarkus.deployment;

import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.quarkus.deployment.PadlockBuildTimeConfig.DevServices.Start;
import dev.padlock.quarkus.runtime.internal.QuarkusRedisHosts;
import dev.padlock.redisserver.ContainerRuntimeHint;
import dev.padlock.redisserver.RedisBinary;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.builditem.Startable;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.devservices.common.ContainerAddress;
import io.quarkus.devservices.common.ContainerLocator;
import io.quarkus.runtime.LaunchMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
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
        ConfigView view = ConfigView.of(config);
        boolean devMode = launchMode.getLaunchMode() == LaunchMode.DEVELOPMENT;
        Optional<Path> binary = redisServer(dev);
        Start start = dev.start();
        // Asking Testcontainers when nothing hints at a runtime costs a second and logs an ERROR: ask only on a hint.
        Optional<String> hint = start == Start.AUTO ? ContainerRuntimeHint.find() : Optional.empty();
        BooleanSupplier containers =
                switch (start) {
                    case PROCESS -> () -> false;
                    case CONTAINER -> docker::isContainerRuntimeAvailable;
                    case AUTO -> () -> hint.isPresent() && docker.isContainerRuntimeAvailable();
                };

        DevServicesPlan.Choice choice = DevServicesPlan.decide(new DevServicesPlan.Inputs(
                QuarkusRedisHosts.padlockConfigured(view),
                view.get(QuarkusRedisHosts.HOSTS).isPresent() || quarkusRedisDevServiceRuns(capabilities, config),
                dev.enabled(),
                start,
                devMode,
                dev.shared(),
                containers,
                () -> sharedContainer(dev, launchMode).isPresent(),
                binary.isPresent()));
        LOG.debugf("Padlock Dev Services: %s", choice);
        if (choice == DevServicesPlan.Choice.START_PROCESS && hint.isEmpty()) {
            QuietContainerProbe.install();
        }

        Optional<DevServicesResultBuildItem> service =
                switch (choice) {
                    case CONFIGURED, BRIDGE_QUARKUS_REDIS -> Optional.empty();
                    case DISABLED, FAIL ->
                        throw new IllegalStateException(DevServicesPlan.noRedisMessage(choice, start, dev.imageName()));
                    case REUSE_SHARED_CONTAINER ->
                        Optional.of(shared(sharedContainer(dev, launchMode).orElseThrow()));
                    case START_CONTAINER ->
                        Optional.of(owned(
                                dev,
                                () -> new RedisContainerService(
                                        dev.imageName(),
                                        dev.port(),
                                        dev.shared() && devMode,
                                        dev.serviceName(),
                                        dev.containerEnv(),
                                        start == Start.CONTAINER
                                                ? "quarkus.padlock.devservices.start=container"
                                                : "a container runtime answers (" + hint.orElse("?") + ")")));
                    case START_PROCESS ->
                        Optional.of(owned(
                                dev,
                                () -> new RedisProcessService(
                                        binary.orElseThrow(), binaryOrigin(dev), whyProcess(start, hint))));
                };
        service.ifPresent(services::produce);
    }

    /** Why Dev Services start a process rather than a container, for the one INFO line that says which Redis. */
    private static String whyProcess(Start start, Optional<String> hint) {
        if (start == Start.PROCESS) {
            return "quarkus.padlock.devservices.start=process";
        }
        return hint.map(h -> "no container runtime answers (" + h + ")")
                .orElse("no container runtime was found (no DOCKER_HOST, no Docker or Podman socket)");
    }

    private static DevServicesResultBuildItem shared(ContainerAddress shared) {
        LOG.infof(
                "Padlock Dev Services reuse the shared Redis container %s at %s: a dev-mode application started it"
                        + " (quarkus.padlock.devservices.shared=true)",
                shared.getId(), shared.getUrl());
        return DevServicesResultBuildItem.discovered()
                .feature(PadlockProcessor.FEATURE)
                .containerId(shared.getId())
                .config(Map.of(ConfigKeys.REDIS_ADDRESS, "redis://" + shared.getUrl()))
                .build();
    }

    /**
     * A Redis Quarkus starts, keeps across live reloads while {@link ServiceConfig} stays equal, and stops at
     * shutdown; its address becomes {@code padlock.redis.address}.
     */
    private static <S extends Startable> DevServicesResultBuildItem owned(
            PadlockBuildTimeConfig.DevServices dev, Supplier<S> startable) {
        return DevServicesResultBuildItem.<S>owned()
                .feature(PadlockProcessor.FEATURE)
                .serviceName(dev.serviceName())
                .serviceConfig(serviceConfig(dev))
                .startable(startable)
                .configProvider(Map.of(ConfigKeys.REDIS_ADDRESS, Startable::getConnectionInfo))
                .build();
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

    /** The Quarkus Redis client starts its own Dev Service unless disabled; Padlock then bridges to it. */
    private static boolean quarkusRedisDevServiceRuns(Capabilities capabilities, Config config) {
        return capabilities.isPresent(Capability.REDIS_CLIENT)
                && config.getOptionalValue("quarkus.redis.devservices.enabled", Boolean.class)
                        .orElse(true);
    }

    private static Optional<ContainerAddress> sharedContainer(
            PadlockBuildTimeConfig.DevServices dev, LaunchModeBuildItem launchMode) {
        for (String label : List.of(RedisContainerService.LABEL, QUARKUS_REDIS_LABEL)) {
            // this application's own container, found again on a live reload, is not another's to share
            Optional<ContainerAddress> found = new ContainerLocator(label, RedisContainerService.REDIS_PORT)
                    .locateContainer(dev.serviceName(), dev.shared(), launchMode.getLaunchMode())
                    .filter(container -> !RedisContainerService.runsHere(container.getId()));
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** The configured binary, else {@code redis-server} on the PATH, as the process launcher finds it. */
    private static Optional<Path> redisServer(PadlockBuildTimeConfig.DevServices dev) {
        if (dev.redisServer().isEmpty()) {
            return RedisBinary.findOnPath();
        }
        Path configured = Path.of(dev.redisServer().get());
        if (!Files.isExecutable(configured)) {
            throw new IllegalStateException("Invalid quarkus.padlock.devservices.redis-server: '" + configured
                    + "' is not an executable file. Point it at redis-server, or remove it to use the PATH.");
        }
        return Optional.of(configured);
    }

    private static String binaryOrigin(PadlockBuildTimeConfig.DevServices dev) {
        return dev.redisServer().isPresent() ? "quarkus.padlock.devservices.redis-server" : "PATH";
    }
}
