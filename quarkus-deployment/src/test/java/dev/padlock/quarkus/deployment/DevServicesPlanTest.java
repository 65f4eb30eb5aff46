package dev.padlock.quarkus.deployment;

import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.BRIDGE_QUARKUS_REDIS;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.CONFIGURED;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.DISABLED;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.FAIL;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.REUSE_SHARED_CONTAINER;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.START_CONTAINER;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.START_PROCESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.quarkus.deployment.PadlockBuildTimeConfig.DevServices.Start;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The Dev Services decision on every path, including the container ones these machines cannot run. */
class DevServicesPlanTest {

    static final BooleanSupplier YES = () -> true;
    static final BooleanSupplier NO = () -> false;
    static final BooleanSupplier MUST_NOT_ASK = () -> {
        throw new AssertionError("asked although the decision was already made");
    };

    private static DevServicesPlan.Choice decide(
            boolean padlock,
            boolean quarkusRedis,
            boolean enabled,
            boolean devMode,
            boolean shared,
            BooleanSupplier docker,
            BooleanSupplier sharedRunning,
            boolean binary) {
        return decide(padlock, quarkusRedis, enabled, Start.AUTO, devMode, shared, docker, sharedRunning, binary);
    }

    private static DevServicesPlan.Choice decide(
            boolean padlock,
            boolean quarkusRedis,
            boolean enabled,
            Start start,
            boolean devMode,
            boolean shared,
            BooleanSupplier docker,
            BooleanSupplier sharedRunning,
            boolean binary) {
        return DevServicesPlan.decide(new DevServicesPlan.Inputs(
                padlock, quarkusRedis, enabled, start, devMode, shared, docker, sharedRunning, binary));
    }

    @Test
    void aConfiguredAddressOrQuarkusRedisWinsWithoutAskingDocker() {
        assertThat(decide(true, true, true, true, true, MUST_NOT_ASK, MUST_NOT_ASK, true))
                .isEqualTo(CONFIGURED);
        assertThat(decide(false, true, true, true, true, MUST_NOT_ASK, MUST_NOT_ASK, true))
                .isEqualTo(BRIDGE_QUARKUS_REDIS);
        assertThat(decide(false, false, false, true, true, MUST_NOT_ASK, MUST_NOT_ASK, true))
                .isEqualTo(DISABLED);
    }

    @Test
    void inDevModeASharedContainerIsReusedWhenOneRuns() {
        assertThat(decide(false, false, true, true, true, YES, YES, true)).isEqualTo(REUSE_SHARED_CONTAINER);
        assertThat(decide(false, false, true, true, true, YES, NO, true)).isEqualTo(START_CONTAINER);
        // tests and shared=false never reuse, and do not look
        assertThat(decide(false, false, true, false, true, YES, MUST_NOT_ASK, true))
                .isEqualTo(START_CONTAINER);
        assertThat(decide(false, false, true, true, false, YES, MUST_NOT_ASK, true))
                .isEqualTo(START_CONTAINER);
    }

    @Test
    void withoutContainersAProcessElseFailure() {
        assertThat(decide(false, false, true, true, true, NO, MUST_NOT_ASK, true))
                .isEqualTo(START_PROCESS);
        assertThat(decide(false, false, true, false, true, NO, MUST_NOT_ASK, false))
                .isEqualTo(FAIL);
    }

    @Test
    void theFailureNamesTheThreeFixes() {
        for (DevServicesPlan.Choice choice : new DevServicesPlan.Choice[] {FAIL, DISABLED}) {
            assertThat(DevServicesPlan.noRedisMessage(choice, Start.AUTO, "redis:7"))
                    .contains("padlock.redis.address=redis://host:port")
                    .contains("install redis-server")
                    .contains("quarkus.padlock.devservices.redis-server")
                    .contains("start Docker or Podman");
        }
        assertThat(DevServicesPlan.noRedisMessage(DISABLED, Start.AUTO, "redis:7"))
                .contains("quarkus.padlock.devservices.enabled=false");
    }

    @Test
    void theFailureNamesTheConfiguredImage() {
        assertThat(DevServicesPlan.noRedisMessage(FAIL, Start.AUTO, "registry.local/redis:7.2"))
                .contains("run the registry.local/redis:7.2 image")
                .doesNotContain("redis:7 image");
    }

    @Test
    void startProcessNeverAsksTheContainerRuntime() {
        assertThat(decide(false, false, true, Start.PROCESS, true, true, MUST_NOT_ASK, MUST_NOT_ASK, true))
                .isEqualTo(START_PROCESS);
        assertThat(decide(false, false, true, Start.PROCESS, true, true, MUST_NOT_ASK, MUST_NOT_ASK, false))
                .isEqualTo(FAIL);
        assertThat(DevServicesPlan.noRedisMessage(FAIL, Start.PROCESS, "redis:7"))
                .contains("quarkus.padlock.devservices.start=process, but no redis-server binary was found")
                .contains("quarkus.padlock.devservices.redis-server");
    }

    @Test
    void startContainerNeverFallsBackToAProcess() {
        assertThat(decide(false, false, true, Start.CONTAINER, false, true, YES, MUST_NOT_ASK, true))
                .isEqualTo(START_CONTAINER);
        assertThat(decide(false, false, true, Start.CONTAINER, true, true, YES, YES, true))
                .isEqualTo(REUSE_SHARED_CONTAINER);
        assertThat(decide(false, false, true, Start.CONTAINER, true, true, NO, MUST_NOT_ASK, true))
                .isEqualTo(FAIL);
        assertThat(DevServicesPlan.noRedisMessage(FAIL, Start.CONTAINER, "redis:7"))
                .contains("quarkus.padlock.devservices.start=container, but no container runtime answers")
                .contains("quarkus.padlock.devservices.start=auto");
    }
}
