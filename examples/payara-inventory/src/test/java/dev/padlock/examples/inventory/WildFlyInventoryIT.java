package dev.padlock.examples.inventory;

import dev.padlock.examples.load.InventoryApps;
import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.RunningApp;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same WAR as on Payara, unchanged, on WildFly 39 (the distribution the build unpacks into {@code target/}, booted
 * once for the class with {@code standalone-microprofile.xml}): WildFly brings its own Weld, SmallRye Config and
 * MicroProfile Health, the WAR its own Redisson and Netty in {@code WEB-INF/lib}.
 */
class WildFlyInventoryIT {

    static final Path WILDFLY_HOME = Path.of(System.getProperty("inventory.wildfly-home"));
    static final Path WAR = Path.of(System.getProperty("inventory.war"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    static final InventoryClient client = new InventoryClient();
    static RedisServer redis;
    static RunningApp wildFly;

    @BeforeAll
    static void start() {
        redis = Redis.startServer();
        wildFly = InventoryApps.startWildFly(WILDFLY_HOME, WAR, "wildfly", redis.uri(), LOGS, Map.of());
        client.warmUp(wildFly.baseUri());
    }

    @AfterAll
    static void stop() {
        try {
            if (wildFly != null) {
                wildFly.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void wildFlySellsExactlyTheStock() {
        InventoryChecks.sellsExactlyTheStock("WildFly", client, redis, List.of(wildFly.baseUri()), "apple");
    }

    /**
     * WildFly serves MicroProfile Health on its management port; Padlock's readiness check, a bean the portable
     * extension adds, must be among the checks WildFly finds there.
     */
    @Test
    void readinessListsPadlocksCheckUp() {
        InventoryChecks.readinessListsPadlockUp(
                client.health(wildFly.uri(InventoryApps.MANAGEMENT), "health/ready"), redis);
    }
}
