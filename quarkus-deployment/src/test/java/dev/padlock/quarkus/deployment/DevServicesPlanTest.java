package dev.padlock.quarkus.deployment;

import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.BRIDGE_QUARKUS_REDIS;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.CONFIGURED;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.DISABLED;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.FAIL;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.REUSE_SHARED_CONTAINER;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.START_CONTAINER;
import static dev.padlock.quarkus.deployment.DevServicesPlan.Choice.START_PROCESS;
import static org.assertj.core.api.Assertions.assertThat;

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
        return DevServicesPlan.decide(new DevServicesPlan.Inputs(
                padlock, quarkusRedis, enabled, devMode, shared, docker, sharedRunning, binary));
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
            assertThat(DevServicesPlan.noRedisMessage(choice))
                    .contains("padlock.redis.address=redis://host:port")
                    .contains("install redis-server")
                    .contains("quarkus.padlock.devservices.redis-server")
                    .contains("start Docker or Podman");
        }
        assertThat(DevServicesPlan.noRedisMessage(DISABLED)).contains("quarkus.padlock.devservices.enabled=false");
    }
}
