package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A key rendered from a value whose toString() is an identity hash, an array, a time-zone dependent date or an
 * unordered set gives equal arguments different keys, so no mutual exclusion: the deployment refuses it.
 */
@ExtendWith(RedisExtension.class)
class UnstableKeysTest {

    /** An entity without toString(). */
    public static class Order {
        private final String id;

        public Order(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    public record Sku(String code) {}

    public enum Region {
        EU
    }

    @ApplicationScoped
    public static class Unstable {
        @Locked(value = "order", key = "{order}")
        public void byEntity(Order order) {}

        @Locked(value = "batch", key = "{ids}")
        public void byArray(String[] ids) {}

        @Locked(value = "day", key = "{when}")
        public void byDate(Date when) {}

        @Locked(value = "skus", key = "{skus}")
        public void bySet(Set<String> skus) {}
    }

    @ApplicationScoped
    public static class Stable {
        @Locked(value = "order", key = "{order.id}")
        public void byEntityId(Order order) {}

        @Locked(
                value = "sku",
                key = {"{sku}", "{region}", "{id}", "{at}", "{codes}"})
        public void byValues(Sku sku, Region region, UUID id, Instant at, List<String> codes) {}
    }

    @Test
    void unstableKeysFailTheDeploymentAllAtOnce() {
        RuntimeException failure = Deployment.failing(Map.of(), Unstable.class);
        String all = failure.toString() + failure.getCause();
        for (Throwable s : failure.getSuppressed()) {
            all += s;
        }
        String bean = Unstable.class.getName();
        assertThat(all)
                .contains("Invalid @Locked.key on " + bean + "#byEntity(Order): {order} is a " + Order.class.getName()
                        + ", which inherits Object.toString()")
                .contains("Lock on a property such as {order.id}")
                .contains("Invalid @Locked.key on " + bean + "#byArray(String[]): {ids} is a String[], whose"
                        + " toString() is an identity hash")
                .contains("Invalid @Locked.key on " + bean + "#byDate(Date): {when} is a java.util.Date, whose"
                        + " toString() depends on the JVM's time zone")
                .contains("Invalid @Locked.key on " + bean + "#bySet(Set): {skus} is a java.util.Set, whose"
                        + " toString() lists its elements in iteration order");
    }

    @Test
    void keysFromPropertiesRecordsEnumsAndValueTypesAreAccepted(RedisServer redis) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Stable.class)) {
            app.bean(Stable.class).byEntityId(new Order("42"));
            app.bean(Stable.class)
                    .byValues(new Sku("a"), Region.EU, UUID.randomUUID(), Instant.now(), List.of("x", "y"));
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }
}
