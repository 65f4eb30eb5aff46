package dev.padlock.quarkus.deployment;

import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Build-time settings of Padlock on Quarkus. Connection and lock settings are the runtime-independent
 * {@code padlock.*} keys; only what Quarkus decides at build time lives here. Only build steps read it, so it
 * lives in the deployment module, as the Quarkus Redis client's Dev Services configuration does.
 */
@ConfigMapping(prefix = "quarkus.padlock")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface PadlockBuildTimeConfig {

    /** Dev Services: a Redis for dev mode and tests when no address is configured. */
    DevServices devservices();

    /** The readiness check. */
    Health health();

    /** Readiness check settings. */
    interface Health {

        /**
         * Whether Padlock's readiness check ({@code padlock} in {@code /q/health/ready}) is published when the
         * application has the {@code quarkus-smallrye-health} extension. It is down while the client Padlock locks
         * with cannot reach Redis, since every locked call would then fail; turn it off where Redis being away must
         * not take the application out of service.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /** Dev Services settings. */
    interface DevServices {

        /**
         * Whether Padlock starts a Redis in dev and test mode when neither {@code padlock.redis.*} nor
         * {@code quarkus.redis.hosts} gives one. Disabled, such an application fails to start and says why.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * Which Redis Dev Services start: {@code auto} (a container when a container runtime answers, else a local
         * {@code redis-server} process; the runtime is asked only when something hints at one, such as
         * {@code DOCKER_HOST} or a Docker or Podman socket), {@code container} (a container only: start-up fails when
         * no runtime answers) or {@code process} (a {@code redis-server} process only, the container runtime never
         * asked).
         */
        @WithDefault("auto")
        Start start();

        /** See {@link #start()}. */
        enum Start {
            /** A container when a runtime answers, else a process. */
            AUTO,
            /** A container only. */
            CONTAINER,
            /** A {@code redis-server} process only. */
            PROCESS
        }

        /** The container image, when a container runtime is available. */
        @WithDefault("redis:7")
        String imageName();

        /** A fixed host port for the container; a free one when unset. A redis-server process always takes a free port. */
        OptionalInt port();

        /**
         * Whether dev-mode applications share one Redis container, found by the label
         * {@code quarkus-dev-service-padlock} (or the Quarkus Redis client's {@code quarkus-dev-service-redis})
         * with the value of {@code service-name}. Processes are never shared.
         */
        @WithDefault("true")
        boolean shared();

        /** The value of the sharing label, so several applications can share one container or keep apart. */
        @WithDefault("padlock")
        String serviceName();

        /** Environment variables passed to the container. */
        @ConfigDocMapKey("environment-variable-name")
        Map<String, String> containerEnv();

        /**
         * The {@code redis-server} binary to start when no container runtime is available; found on the
         * {@code PATH} when unset.
         */
        Optional<String> redisServer();
    }
}
