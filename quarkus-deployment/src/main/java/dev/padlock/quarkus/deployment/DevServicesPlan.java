package dev.padlock.quarkus.deployment;

import dev.padlock.quarkus.deployment.PadlockBuildTimeConfig.DevServices.Start;
import java.util.function.BooleanSupplier;

/**
 * Which Redis Padlock's Dev Services provide, as a pure function of what the build can see, so every branch
 * is tested on machines without a container runtime. Checks that cost time (asking Docker, looking for a
 * shared container) are suppliers, consulted only when the earlier steps did not decide.
 */
final class DevServicesPlan {

    /** The outcome, in the order they are tried. */
    enum Choice {
        /** {@code padlock.redis.*} is set: nothing to start. */
        CONFIGURED,
        /** {@code quarkus.redis.hosts} (or the Quarkus Redis client's own Dev Service) gives a Redis: use it. */
        BRIDGE_QUARKUS_REDIS,
        /** Dev Services are disabled: start-up fails, saying what to set. */
        DISABLED,
        /** A shared dev-service Redis container already runs (dev mode): reuse it. */
        REUSE_SHARED_CONTAINER,
        /** Start a container through Testcontainers. */
        START_CONTAINER,
        /** Start a local redis-server process on a free port. */
        START_PROCESS,
        /** None of the above can be had: start-up fails, listing the three ways to fix it. */
        FAIL
    }

    /** What the decision looks at. */
    record Inputs(
            boolean padlockRedisConfigured,
            boolean quarkusRedisProvided,
            boolean enabled,
            Start start,
            boolean devMode,
            boolean shared,
            BooleanSupplier containerRuntimeAvailable,
            BooleanSupplier sharedContainerRunning,
            boolean redisServerBinaryFound) {}

    private DevServicesPlan() {}

    static Choice decide(Inputs in) {
        if (in.padlockRedisConfigured()) {
            return Choice.CONFIGURED;
        }
        if (in.quarkusRedisProvided()) {
            return Choice.BRIDGE_QUARKUS_REDIS;
        }
        if (!in.enabled()) {
            return Choice.DISABLED;
        }
        if (in.start() == Start.PROCESS) {
            return in.redisServerBinaryFound() ? Choice.START_PROCESS : Choice.FAIL;
        }
        boolean containers = in.containerRuntimeAvailable().getAsBoolean();
        if (containers
                && in.devMode()
                && in.shared()
                && in.sharedContainerRunning().getAsBoolean()) {
            return Choice.REUSE_SHARED_CONTAINER;
        }
        if (containers) {
            return Choice.START_CONTAINER;
        }
        if (in.start() == Start.CONTAINER) {
            return Choice.FAIL;
        }
        return in.redisServerBinaryFound() ? Choice.START_PROCESS : Choice.FAIL;
    }

    /**
     * The start-up error when Padlock has no Redis in dev or test mode.
     *
     * @param image the container image Dev Services would run ({@code quarkus.padlock.devservices.image-name})
     */
    static String noRedisMessage(Choice choice, Start start, String image) {
        String none = "Padlock has no Redis to lock on: padlock.redis.address (and the other padlock.redis.* keys) is"
                + " not set, and ";
        if (choice != Choice.DISABLED && start == Start.CONTAINER) {
            return none + "quarkus.padlock.devservices.start=container, but no container runtime answers. Start Docker"
                    + " or Podman (Testcontainers finds it through DOCKER_HOST or its socket), or set"
                    + " quarkus.padlock.devservices.start=auto to fall back to a local redis-server.";
        }
        if (choice != Choice.DISABLED && start == Start.PROCESS) {
            return none + "quarkus.padlock.devservices.start=process, but no redis-server binary was found. Install"
                    + " redis-server (apt install redis-server, brew install redis), or point"
                    + " quarkus.padlock.devservices.redis-server at one; or set quarkus.padlock.devservices.start=auto"
                    + " to use a container when Docker or Podman runs.";
        }
        String why = choice == Choice.DISABLED
                ? "Dev Services are disabled (quarkus.padlock.devservices.enabled=false)"
                : "Dev Services found neither a container runtime nor a redis-server binary";
        return none + why + ". Fix it one of three ways: set padlock.redis.address=redis://host:port;"
                + " or install redis-server (apt install redis-server, brew install redis), or point"
                + " quarkus.padlock.devservices.redis-server at one, so Dev Services start it; or start Docker or"
                + " Podman so Dev Services run the " + image + " image."
                + (choice == Choice.DISABLED ? " (Dev Services must be enabled for the last two.)" : "");
    }
}
