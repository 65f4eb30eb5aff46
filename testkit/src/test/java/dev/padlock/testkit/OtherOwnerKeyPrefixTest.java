package dev.padlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An application with its own {@code padlock.key-prefix}: a hold must use the same prefix to keep it out. */
@ExtendWith(RedisExtension.class)
class OtherOwnerKeyPrefixTest {

    @ApplicationScoped
    public static class Shop {
        @Locked(value = "stock", key = "{sku}", waitTime = "0")
        public String reserve(String sku) {
            return sku;
        }
    }

    @Test
    void aHoldWithTheApplicationsPrefixKeepsItOut(RedisServer redis) {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.key-prefix", "shop:"), Shop.class)) {
            Shop shop = app.bean(Shop.class);

            try (HeldLock held = OtherOwner.at(redis).keyPrefix("shop:").hold("stock", "A-42")) {
                assertThat(held.key()).isEqualTo("shop:stock:A-42");
                assertThatThrownBy(() -> shop.reserve("A-42")).isInstanceOf(LockNotAcquiredException.class);
            }
            try (HeldLock held = OtherOwner.at(redis).hold("stock", "A-42")) { // the default prefix: another key
                assertThat(shop.reserve("A-42")).isEqualTo("A-42");
            }
        }
    }
}
