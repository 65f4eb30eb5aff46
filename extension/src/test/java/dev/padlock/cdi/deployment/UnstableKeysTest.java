package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.UnstableKeys;
import dev.padlock.contract.UnstableKeys.Order;
import dev.padlock.contract.UnstableKeys.Region;
import dev.padlock.contract.UnstableKeys.Sku;
import dev.padlock.contract.UnstableKeys.Stable;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link UnstableKeys} on Weld: a key rendered from a value whose toString() is an identity hash, an array, a
 * time-zone dependent date or an unordered set gives equal arguments different keys, so no mutual exclusion: the
 * deployment refuses it. The stable ones deploy and lock.
 */
@ExtendWith(RedisExtension.class)
class UnstableKeysTest {

    @Test
    void unstableKeysFailTheDeploymentAllAtOnce() {
        OnWeld.checkRefused(UnstableKeys.REFUSAL);
    }

    @Test
    void keysFromPropertiesRecordsEnumsAndValueTypesAreAccepted(RedisServer redis) {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), UnstableKeys.ACCEPTED.beanClasses())) {
            app.bean(Stable.class).byEntityId(new Order("42"));
            app.bean(Stable.class)
                    .byValues(new Sku("a"), Region.EU, UUID.randomUUID(), Instant.now(), List.of("x", "y"));
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }
}
