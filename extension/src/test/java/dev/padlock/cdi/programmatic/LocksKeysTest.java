package dev.padlock.cdi.programmatic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockContext;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keys given to {@code Locks} render as {@code @Locked} key templates render arguments: the same Redis key for the
 * same value (escaped, shortened), several keys sorted and taken once each, and values that would not render one
 * key for equal values refused before anything is taken.
 */
@ExtendWith(RedisExtension.class)
class LocksKeysTest {

    public record Sku(String code) {}

    @ApplicationScoped
    public static class Keys {
        @Inject
        Locks locks;

        @Inject
        LockContext lock;

        @Locked(value = "stock", key = "{sku}")
        public String annotatedKey(Object sku) {
            return lock.key();
        }

        public String codeKey(Object sku) {
            return locks.on("stock", sku).get(() -> lock.key());
        }

        public List<String> codeKeys(Object first, Object... more) {
            return locks.on("pair", first, more).get(() -> lock.keys());
        }

        public String nameOnly() {
            return locks.on("nightly").get(() -> lock.name() + " " + lock.key());
        }

        public void use(String name, Object key) {
            locks.on(name, key).run(() -> {});
        }
    }

    private static Map<String, String> config(RedisServer redis) {
        return Map.of("padlock.redis.address", redis.uri());
    }

    @Test
    void keysRenderAsTemplatesRenderArguments(RedisServer redis) {
        try (Deployment app = Deployment.start(config(redis), Keys.class)) {
            Keys keys = app.bean(Keys.class);

            assertThat(keys.codeKey("A-42")).isEqualTo("padlock:stock:A-42");
            assertThat(keys.codeKey("a{b}%")).isEqualTo("padlock:stock:a%7Bb%7D%25");
            assertThat(keys.codeKey(42)).isEqualTo("padlock:stock:42");
            assertThat(keys.codeKey(new Sku("X"))).isEqualTo("padlock:stock:Sku[code=X]");
            String longValue = "x".repeat(300) + "{y}";
            assertThat(keys.codeKey(longValue))
                    .as("shortened as a template shortens it")
                    .contains("~sha256:")
                    .isEqualTo(keys.annotatedKey(longValue));
            for (Object value : List.of("A-42", "a{b}%", 42, new Sku("X"))) {
                assertThat(keys.codeKey(value)).isEqualTo(keys.annotatedKey(value));
            }
            assertThat(keys.nameOnly()).isEqualTo("nightly padlock:nightly");
            assertThat(keys.codeKeys("b", "a", "b"))
                    .as("sorted, each key once")
                    .containsExactly("padlock:pair:a", "padlock:pair:b");
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    @Test
    void theKeyPrefixApplies(RedisServer redis) {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.key-prefix", "shop:"), Keys.class)) {
            assertThat(app.bean(Keys.class).codeKey("A-42")).isEqualTo("shop:stock:A-42");
        }
    }

    @Test
    void unusableNamesAndKeysAreRefusedBeforeAnythingIsTaken(RedisServer redis) {
        try (Deployment app = Deployment.start(config(redis), Keys.class)) {
            Keys keys = app.bean(Keys.class);
            Set<String> set = new HashSet<>(List.of("a", "b"));

            assertThat(catchThrowable(() -> keys.use("stock", null)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Locks.on(\"stock\", key)")
                    .hasMessageContaining("the key is null");
            assertThat(catchThrowable(() -> keys.use("stock", new int[] {1})))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Locks.on(\"stock\", key)")
                    .hasMessageContaining("int[], whose toString() is an identity hash");
            assertThat(catchThrowable(() -> keys.use("stock", set)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("java.util.HashSet")
                    .hasMessageContaining("iteration order");
            assertThat(catchThrowable(() -> keys.use("stock", new Date())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("time zone")
                    .hasMessageContaining("Lock on its time");
            assertThat(catchThrowable(() -> keys.use("stock", new Object())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("inherits Object.toString()");
            assertThat(catchThrowable(() -> keys.use("stock:{eu}", "A-42")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Locks.on(\"stock:{eu}\")")
                    .hasMessageContaining("hash tag")
                    .hasMessageContaining("Remove the braces; pass the varying part as a key");
            assertThat(catchThrowable(() -> keys.use(" ", "A-42")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("a lock needs a name");
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }
}
