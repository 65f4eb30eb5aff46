package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A class-level binding applies to every business method; a method-level one wins. */
@ExtendWith(RedisExtension.class)
class BindingsTest {

    static RedisServer redis;

    static List<Object> heldKeys() {
        return (List<Object>) redis.command("KEYS", "padlock:*");
    }

    @ApplicationScoped
    @Locked("whole-class")
    public static class Reports {
        public List<Object> daily() {
            return heldKeys();
        }

        @Locked("own")
        public List<Object> special() {
            return heldKeys();
        }
    }

    @ApplicationScoped
    public static class Inherits extends Reports {
        public List<Object> extra() {
            return heldKeys();
        }
    }

    @Test
    void classLevelAppliesToEveryMethodAndMethodLevelWins(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Reports.class)) {
            Reports reports = app.bean(Reports.class);
            assertThat(reports.daily()).containsExactly("padlock:whole-class");
            assertThat(reports.special()).containsExactly("padlock:own");
            assertThat(heldKeys()).isEmpty();
        }
    }

    @Test
    void aSubclassInheritsTheClassLevelBinding(RedisServer server) {
        redis = server;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", server.uri()), Inherits.class)) {
            assertThat(app.bean(Inherits.class).extra()).containsExactly("padlock:whole-class");
        }
    }
}
