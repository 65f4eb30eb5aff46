package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;

@ExtendWith(RedisExtension.class)
class KeyTemplatesOnRedisTest {

    public record Customer(String id) {}

    public static class Order {
        private final Customer customer;

        public Order(Customer customer) {
            this.customer = customer;
        }

        public Customer getCustomer() {
            return customer;
        }
    }

    @ApplicationScoped
    public static class Shop {
        final AtomicInteger bodies = new AtomicInteger();

        @Inject
        RedissonClient redisson;

        @Locked(value = "stock", key = "{sku}")
        public Object byName(String sku, int qty) {
            bodies.incrementAndGet();
            return heldKeys();
        }

        @Locked(value = "stock", key = "{1}")
        public Object byPosition(int qty, String sku) {
            return heldKeys();
        }

        @Locked(value = "order", key = "{order.customer.id}")
        public Object byPath(Order order) {
            bodies.incrementAndGet();
            return heldKeys();
        }

        public int bodies() {
            return bodies.get();
        }

        /** The keys Padlock holds while the method runs. */
        private List<String> heldKeys() {
            List<String> keys = new ArrayList<>();
            redisson.getKeys().getKeysByPattern("padlock:*").forEach(keys::add);
            return keys;
        }
    }

    @Test
    void rendersNamePositionAndPathIntoTheRedisKey(RedisServer server) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Shop.class)) {
            Shop shop = app.bean(Shop.class);
            assertThat(shop.byName("A-1", 2)).asList().containsExactly("padlock:stock:A-1");
            assertThat(shop.byPosition(2, "B-2")).asList().containsExactly("padlock:stock:B-2");
            assertThat(shop.byPath(new Order(new Customer("c-9")))).asList().containsExactly("padlock:order:c-9");
            assertThat(shop.byName("{evil}", 1)).asList().containsExactly("padlock:stock:%7Bevil%7D");
        }
    }

    @Test
    void aNullAlongThePathFailsAndTheMethodDoesNotRun(RedisServer server) {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Shop.class)) {
            Shop shop = app.bean(Shop.class);
            assertThatThrownBy(() -> shop.byPath(new Order(null)))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("order.customer is null");
            assertThatThrownBy(() -> shop.byName(null, 1)).isInstanceOf(LockException.class);
            assertThat(shop.bodies()).isZero();
        }
    }

    @Test
    void theKeyPrefixIsConfigurable(RedisServer server) {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", server.uri(), "padlock.key-prefix", "app1:"), Shop.class)) {
            app.bean(Shop.class).byName("A-1", 1);
            assertThat(server.command("KEYS", "app1:*")).asList().isEmpty(); // released
        }
    }
}
